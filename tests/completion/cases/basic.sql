-- Tables, columns and functions in everyday positions. Format: "-- expect: a, b" (each must be in the
-- first five candidates), optional "-- absent: x" (must not be offered), then the statement with "|"
-- at the cursor. A case runs to the next "-- expect:" line.
-- expect: customers
SELECT * FROM cust|
-- expect: orders, order_items
SELECT * FROM ord|
-- expect: recent_orders
SELECT * FROM rec|
-- expect: order
SELECT * FROM `order` o JOIN ord| 
-- expect: customers
SELECT * FROM orders o JOIN cus|
-- expect: customers
SELECT * FROM orders o LEFT JOIN cus|
-- expect: order_items
SELECT * FROM orders, order_i|
-- expect: country
SELECT coun| FROM customers
-- expect: signup_date
SELECT sig| FROM customers c
-- expect: customer_id
SELECT o.cust| FROM orders o
-- expect: status
SELECT o.st| FROM orders o
-- expect: name
SELECT c.na| FROM customers c
-- expect: name
SELECT c.na| FROM customers AS c
-- expect: quantity
SELECT i.qu| FROM order_items i
-- expect: price
SELECT i.pri| FROM order_items i JOIN orders o ON o.id = i.order_id
-- expect: order_date
SELECT order_d| FROM orders
-- expect: amount
SELECT sum(am|) FROM orders
-- expect: amount
SELECT sum(o.am|) FROM orders o
-- expect: country
SELECT * FROM customers WHERE cou|
-- expect: status
SELECT * FROM orders WHERE st|
-- expect: status
SELECT * FROM orders o WHERE o.st|
-- expect: status
SELECT * FROM orders o WHERE o.amount > 10 AND o.st|
-- expect: upper
SELECT upp| FROM customers
-- expect: count
SELECT cou|(*) FROM customers
-- expect: date_add
SELECT date_a| FROM orders
-- expect: coalesce
SELECT coal| FROM orders
-- expect: note
SELECT no| FROM `order`
-- expect: note
SELECT k.no| FROM `order` k
-- expect: order_key
SELECT k.order_k| FROM `order` AS k
-- expect: status
SELECT r.sta| FROM recent_orders r
-- expect: order_date
SELECT order_| FROM recent_orders
-- expect: SELECT
sel|
-- expect: WHERE
SELECT * FROM orders whe|
-- expect: GROUP BY
SELECT status, count(*) FROM orders gro|
-- expect: ORDER BY
SELECT * FROM orders ord|
-- expect: JOIN
SELECT * FROM orders jo|
-- expect: LIMIT
SELECT * FROM orders lim|
-- expect: customers
SELECT * FROM cmpl.cus|
-- expect: order_items
SELECT * FROM cmpl.order_|
-- expect: cmpl
SELECT * FROM cmp|
-- expect: name
SELECT cmpl.customers.na| FROM cmpl.customers
-- expect: customers
UPDATE cus|
-- expect: customers
DELETE FROM cus|
-- expect: country
SELECT * FROM customers c WHERE c.country = 'DE' AND c.co|
-- expect: id
SELECT * FROM customers c WHERE c.i|
-- expect: customer_id
SELECT * FROM orders o WHERE o.customer_id IN (SELECT c.id FROM customers c) AND o.cus|
-- expect: id
SELECT * FROM orders o WHERE o.customer_id IN (SELECT c.i| FROM customers c)
-- expect: country
SELECT * FROM orders o WHERE EXISTS (SELECT 1 FROM customers c WHERE c.cou|)
-- expect: status
SELECT * FROM orders o WHERE EXISTS (SELECT 1 FROM customers c WHERE o.sta|)
-- expect: quantity
SELECT CASE WHEN qua| > 1 THEN 'many' END FROM order_items
-- expect: price
SELECT cast(pr| AS INT) FROM order_items
-- expect: customers
SELECT * FROM
  cust|
-- expect: signup_date
SELECT c.id,
       c.signup|
FROM customers c
-- expect: customer_id
SELECT o.|FROM orders o
-- expect: customer_id
SELECT o.cu|stomer FROM orders o
