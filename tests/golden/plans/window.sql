SELECT order_id, customer_id, amount,
       row_number() OVER (PARTITION BY customer_id ORDER BY order_date DESC) AS rn,
       sum(amount) OVER (PARTITION BY customer_id) AS customer_total,
       lag(amount, 1) OVER (PARTITION BY customer_id ORDER BY order_date) AS previous_amount
FROM orders
