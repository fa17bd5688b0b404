-- INSERT column lists, table functions, SHOW … IN, DESCRIBE, USE, ALTER TABLE, ANALYZE, DROP.
-- expect: customer_id
INSERT INTO orders (id, cust|
-- expect: status
INSERT INTO orders (id, customer_id, st|
-- expect: id
INSERT INTO orders (|
-- expect: name
INSERT INTO customers (id, na|
-- expect: country
INSERT INTO customers (id, name, |) VALUES (1, 'a', 'b')
-- absent: id
-- expect: name
INSERT INTO customers (id, |
-- expect: quantity
INSERT INTO order_items (order_id, product_id, qua|
-- expect: signup_date
INSERT INTO TABLE customers (sig|
-- expect: note
INSERT INTO `order` (no|
-- expect: customers
INSERT INTO cust|
-- expect: orders
INSERT OVERWRITE TABLE ord|
-- expect: order_items
INSERT INTO order_i|
-- expect: id
SELECT r.| FROM range(10) r
-- expect: id
SELECT r.i| FROM range(10) AS r
-- expect: id
SELECT i| FROM range(5)
-- expect: id
SELECT * FROM range(3) r JOIN orders o ON o.id = r.|
-- expect: col
SELECT e.| FROM explode(array(1, 2)) e
-- expect: pos
SELECT p.po| FROM posexplode(array('a', 'b')) p
-- expect: v
SELECT t.| FROM explode(array(1, 2)) AS t(v)
-- expect: range
SELECT * FROM ran|
-- expect: explode
SELECT * FROM expl|
-- expect: key, value
SELECT m.| FROM explode(map('a', 1)) m
-- expect: cmpl
SHOW TABLES IN cm|
-- expect: default
SHOW TABLES IN def|
-- expect: cmpl
SHOW TABLES FROM cm|
-- absent: count
-- expect: cmpl
SHOW TABLES IN |
-- expect: cmpl
SHOW VIEWS IN cm|
-- expect: cmpl
SHOW FUNCTIONS IN cm|
-- expect: cmpl
SHOW USER FUNCTIONS IN cm|
-- expect: spark_catalog
SHOW DATABASES IN spar|
-- expect: spark_catalog
SHOW NAMESPACES IN spa|
-- expect: orders
SHOW COLUMNS IN ord|
-- expect: customers
SHOW COLUMNS FROM cus|
-- expect: cmpl
SHOW COLUMNS IN orders IN cm|
-- expect: orders
SHOW CREATE TABLE ord|
-- expect: customers
SHOW TBLPROPERTIES cus|
-- expect: orders
SHOW PARTITIONS ord|
-- expect: cmpl
SHOW TABLE EXTENDED IN cm|
-- expect: TABLES
SHOW TAB|
-- expect: DATABASES
SHOW DATA|
-- expect: CREATE TABLE
SHOW CRE|
-- expect: COLUMNS IN
SHOW COL|
-- expect: customers
DESCRIBE cus|
-- expect: orders
DESCRIBE TABLE ord|
-- expect: orders
DESCRIBE EXTENDED ord|
-- expect: orders
DESC ord|
-- expect: orders
DESCRIBE FORMATTED ord|
-- expect: shipping
DESCRIBE orders sh|
-- expect: status
DESCRIBE TABLE orders st|
-- expect: cmpl
DESCRIBE DATABASE cm|
-- expect: cmpl
DESCRIBE SCHEMA cm|
-- expect: cmpl
DESCRIBE DATABASE EXTENDED cm|
-- expect: upper
DESCRIBE FUNCTION upp|
-- expect: date_add
DESCRIBE FUNCTION EXTENDED date_a|
-- expect: recent_orders
DESCRIBE rec|
-- expect: customers
DESCRIBE QUERY SELECT * FROM cus|
-- expect: cmpl
USE cm|
-- expect: default
USE def|
-- expect: spark_catalog
USE spa|
-- expect: cmpl
USE DATABASE cm|
-- expect: cmpl
USE SCHEMA cm|
-- expect: spark_catalog
USE CATALOG spa|
-- expect: cmpl
USE spark_catalog.cm|
-- expect: customers
ALTER TABLE cus|
-- expect: orders
ALTER TABLE ord|
-- expect: ADD COLUMNS
ALTER TABLE orders ADD|
-- expect: RENAME TO
ALTER TABLE orders REN|
-- expect: SET TBLPROPERTIES
ALTER TABLE orders SET|
-- expect: DROP COLUMN
ALTER TABLE orders DRO|
-- expect: status
ALTER TABLE orders DROP COLUMN st|
-- expect: amount
ALTER TABLE orders ALTER COLUMN am|
-- expect: country
ALTER TABLE customers RENAME COLUMN cou|
-- expect: signup_date
ALTER TABLE customers CHANGE COLUMN sig|
-- expect: status
ALTER TABLE cmpl.orders DROP COLUMN sta|
-- expect: orders
ALTER TABLE cmpl.ord|
-- expect: cmpl
ALTER DATABASE cm|
-- expect: customers
ANALYZE TABLE cus|
-- expect: orders
ANALYZE TABLE ord|
-- expect: COMPUTE STATISTICS
ANALYZE TABLE orders COM|
-- expect: FOR COLUMNS
ANALYZE TABLE orders COMPUTE STATISTICS FOR|
-- expect: NOSCAN
ANALYZE TABLE orders COMPUTE STATISTICS NOS|
-- expect: ALL COLUMNS
ANALYZE TABLE orders COMPUTE STATISTICS FOR A|
-- expect: status
ANALYZE TABLE orders COMPUTE STATISTICS FOR COLUMNS st|
-- expect: amount
ANALYZE TABLE orders COMPUTE STATISTICS FOR COLUMNS status, am|
-- expect: cmpl
ANALYZE TABLES IN cm|
-- expect: TABLE
ANALYZE TA|
-- expect: orders
DROP TABLE ord|
-- expect: orders
DROP TABLE IF EXISTS ord|
-- expect: recent_orders
DROP VIEW rec|
-- expect: cmpl
DROP DATABASE cm|
-- expect: orders
TRUNCATE TABLE ord|
-- expect: orders
REFRESH TABLE ord|
-- expect: orders
CACHE TABLE ord|
-- expect: orders
UNCACHE TABLE ord|
-- expect: orders
UNCACHE TABLE IF EXISTS ord|
-- expect: orders
MSCK REPAIR TABLE ord|
-- expect: customers
CREATE TABLE copy AS SELECT * FROM cus|
-- expect: name
CREATE TABLE copy AS SELECT c.na| FROM customers c
-- expect: status
CREATE OR REPLACE TEMPORARY VIEW v AS SELECT o.st| FROM orders o
-- expect: country
CACHE TABLE c AS SELECT cou| FROM customers
-- expect: customers
EXPLAIN SELECT * FROM cus|
-- expect: status
EXPLAIN SELECT o.st| FROM orders o
-- expect: customers
MERGE INTO cus|
-- expect: country
UPDATE customers SET country = 'DE' WHERE coun|
-- expect: customer_id
MERGE INTO customers t USING orders s ON t.id = s.cust|
-- expect: country
MERGE INTO customers t USING orders s ON t.id = s.customer_id WHEN MATCHED THEN UPDATE SET t.cou|
-- expect: status
DELETE FROM orders o WHERE o.st|
-- expect: status
DELETE FROM orders WHERE sta|
-- expect: amount
INSERT INTO orders SELECT * FROM orders o WHERE o.amo|
-- expect: FUNCTION
DESCRIBE FUNC|
-- expect: QUERY
DESCRIBE QUE|
