SELECT upper(c.name) AS name, net_amount(o.amount) AS net, coalesce(c.country, 'unknown') AS country,
       date_format(o.order_date, 'yyyy-MM') AS month, length(c.name) AS name_length
FROM orders o LEFT JOIN customers c USING (customer_id)
