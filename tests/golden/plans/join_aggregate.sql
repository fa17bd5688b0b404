SELECT c.country, count(*) AS orders, sum(o.amount) AS total
FROM orders o JOIN customers c ON o.customer_id = c.customer_id
WHERE o.order_date >= DATE'2024-01-01'
GROUP BY c.country
