WITH recent AS (SELECT * FROM orders WHERE order_date >= DATE'2024-06-01')
SELECT r.customer_id, max(r.amount) AS largest
FROM recent r
WHERE r.customer_id IN (SELECT customer_id FROM customers WHERE country = 'NL')
GROUP BY r.customer_id
HAVING max(r.amount) > (SELECT avg(amount) FROM orders)
