-- Tables and functions the golden plan queries use; run before compiling each golden query.
CREATE DATABASE IF NOT EXISTS plans_golden;
USE plans_golden;
SET spark.sql.session.timeZone = UTC;
CREATE TABLE IF NOT EXISTS customers (customer_id BIGINT, name STRING, country STRING) USING parquet;
CREATE TABLE IF NOT EXISTS orders (order_id BIGINT, customer_id BIGINT, amount DECIMAL(10,2), order_date DATE) USING parquet;
CREATE TABLE IF NOT EXISTS order_totals (customer_id BIGINT, total DECIMAL(20,2)) USING parquet;
CREATE OR REPLACE TEMPORARY FUNCTION net_amount(amount DECIMAL(10,2)) RETURNS DECIMAL(12,2) RETURN amount * 0.8;
DROP TABLE IF EXISTS big_orders;
LOAD MODULE geo
