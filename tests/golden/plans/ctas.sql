CREATE TABLE big_orders USING parquet AS
SELECT order_id, customer_id, amount FROM orders WHERE amount > 100
