INSERT INTO order_totals
SELECT customer_id, sum(amount) FROM orders GROUP BY customer_id
