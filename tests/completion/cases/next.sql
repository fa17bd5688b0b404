-- What a person types next: join conditions, GROUP BY lists, several statements in one script.
-- expect: o.customer_id = c.id
SELECT * FROM orders o JOIN customers c ON |
-- expect: o.id = i.order_id
SELECT * FROM orders o JOIN order_items i ON |
-- expect: c.id = o.customer_id
SELECT * FROM customers c JOIN orders o ON |
-- expect: o.id = i.order_id
SELECT * FROM orders o LEFT JOIN order_items i ON |
-- expect: r.status = o.status
SELECT * FROM recent_orders r JOIN orders o ON |
-- expect: o.customer_id = c.id
SELECT * FROM orders o INNER JOIN customers AS c ON |
-- expect: orders.customer_id = customers.id
SELECT * FROM orders JOIN customers ON |
-- expect: s.customer_id = c.customer_id
WITH s AS (SELECT customer_id FROM orders) SELECT * FROM s JOIN (SELECT customer_id FROM orders) c ON |
-- expect: o.customer_id = c.id
SELECT * FROM orders o JOIN customers c ON o|
-- expect: i.order_id = o.id
SELECT * FROM order_items i JOIN orders o ON |
-- expect: status
SELECT status, count(*) FROM orders GROUP BY |
-- expect: status
SELECT status, count(*) FROM orders GROUP BY st|
-- expect: c.country
SELECT c.country, count(*) FROM customers c GROUP BY |
-- expect: c.country
SELECT c.country, c.name, count(*) FROM customers c GROUP BY c.name, |
-- expect: year(order_date)
SELECT year(order_date), sum(amount) FROM orders GROUP BY |
-- expect: o.status
SELECT o.status, c.country, sum(o.amount) FROM orders o JOIN customers c ON c.id = o.customer_id GROUP BY |
-- expect: c.country
SELECT o.status, c.country, sum(o.amount) FROM orders o JOIN customers c ON c.id = o.customer_id GROUP BY o.status, |
-- expect: status
SELECT status, count(*) AS n FROM orders GROUP BY | ORDER BY n
-- expect: country
SELECT country, name, max(signup_date) FROM customers GROUP BY |
-- expect: name
SELECT country, name, max(signup_date) FROM customers GROUP BY country, |
-- expect: customers
SELECT 1; SELECT * FROM cus|
-- expect: customer_id
SELECT * FROM customers c; SELECT o.cus| FROM orders o
-- expect: name
SELECT c.na| FROM customers c; SELECT * FROM orders o
-- absent: status
-- expect: name
SELECT c.na| FROM customers c; SELECT o.status FROM orders o
-- expect: big
USE cmpl;
WITH big AS (SELECT * FROM orders) SELECT * FROM bi|;
SELECT 2
-- expect: shipping
CREATE TEMPORARY VIEW x AS SELECT 1;
SELECT o.shi| FROM orders o;
-- expect: cmpl
SELECT ';' AS semi; USE cm|
-- expect: orders
-- a comment with; a semicolon
SELECT * FROM ord|
-- expect: quantity
SELECT 1;
SELECT 2;
SELECT i.qua| FROM order_items i;
SELECT 3
-- expect: status
SELECT /* a comment; with a semicolon */ o.sta| FROM orders o
-- expect: customers
SELECT 1;

SELECT * FROM cu|
-- expect: country
SELECT c.country AS land FROM customers c ORDER BY c.coun|
-- expect: id
SELECT o.| FROM orders o JOIN customers c ON
