-- Names the statement itself defines: CTEs, their columns, subqueries, select-list aliases.
-- expect: big
WITH big AS (SELECT * FROM orders WHERE amount > 100) SELECT * FROM bi|
-- expect: big
WITH big AS (SELECT * FROM orders) SELECT * FROM orders o JOIN bi|
-- expect: per_country
WITH per_country AS (SELECT country, count(*) AS n FROM customers GROUP BY country) SELECT * FROM per_c|
-- expect: n
WITH per_country AS (SELECT country, count(*) AS n FROM customers GROUP BY country) SELECT p.| FROM per_country p
-- expect: country
WITH per_country AS (SELECT country, count(*) AS n FROM customers GROUP BY country) SELECT p.cou| FROM per_country p
-- expect: country
WITH per_country AS (SELECT country, count(*) AS n FROM customers GROUP BY country) SELECT cou| FROM per_country
-- expect: total
WITH t AS (SELECT customer_id, sum(amount) AS total FROM orders GROUP BY customer_id) SELECT t.tot| FROM t
-- expect: total
WITH t AS (SELECT customer_id, sum(amount) AS total FROM orders GROUP BY customer_id) SELECT tot| FROM t
-- expect: customer_id
WITH t AS (SELECT customer_id, sum(amount) AS total FROM orders GROUP BY customer_id) SELECT t.cust| FROM t
-- expect: x
WITH c(x, y) AS (SELECT id, name FROM customers) SELECT c.| FROM c
-- expect: y
WITH c(x, y) AS (SELECT id, name FROM customers) SELECT c.y| FROM c
-- expect: x
WITH c(x, y) AS (SELECT id, name FROM customers) SELECT | FROM c
-- expect: first_seen
WITH s AS (SELECT customer_id, min(order_date) AS first_seen FROM orders GROUP BY customer_id)
SELECT c.name, s.first| FROM customers c JOIN s ON s.customer_id = c.id
-- expect: name
WITH s AS (SELECT customer_id, min(order_date) AS first_seen FROM orders GROUP BY customer_id)
SELECT c.na| FROM customers c JOIN s ON s.customer_id = c.id
-- expect: a2
WITH a1 AS (SELECT id FROM orders), a2 AS (SELECT id FROM a1) SELECT * FROM a|
-- expect: id
WITH a1 AS (SELECT id FROM orders), a2 AS (SELECT id FROM a1) SELECT a2.| FROM a2
-- expect: status
WITH everything AS (SELECT * FROM orders) SELECT e.sta| FROM everything e
-- expect: order_date
WITH everything AS (SELECT * FROM orders) SELECT order_d| FROM everything
-- expect: name
WITH joined AS (SELECT o.*, c.name FROM orders o JOIN customers c ON c.id = o.customer_id) SELECT j.na| FROM joined j
-- expect: amount
WITH joined AS (SELECT o.*, c.name FROM orders o JOIN customers c ON c.id = o.customer_id) SELECT j.amo| FROM joined j
-- expect: x
SELECT s.| FROM (SELECT id AS x FROM orders) s
-- expect: total
SELECT s.tot| FROM (SELECT customer_id, sum(amount) AS total FROM orders GROUP BY customer_id) s
-- expect: customer_id
SELECT s.cus| FROM (SELECT customer_id, sum(amount) AS total FROM orders GROUP BY customer_id) AS s
-- expect: total
SELECT * FROM (SELECT customer_id, sum(amount) AS total FROM orders GROUP BY customer_id) s WHERE s.to|
-- expect: total
SELECT * FROM (SELECT customer_id, sum(amount) AS total FROM orders GROUP BY customer_id) s WHERE tot|
-- expect: n
SELECT c.name, s.| FROM customers c JOIN (SELECT customer_id, count(*) AS n FROM orders GROUP BY customer_id) s ON s.customer_id = c.id
-- expect: status
SELECT sub.sta| FROM (SELECT * FROM orders) sub
-- expect: v
SELECT t.| FROM (SELECT 1 AS v) t
-- expect: inner_total
SELECT * FROM (SELECT * FROM (SELECT sum(amount) AS inner_total FROM orders) a) b WHERE b.inner|
-- expect: country
SELECT x.cou| FROM (SELECT country FROM customers UNION ALL SELECT country FROM customers) x
-- expect: items
SELECT o.id, (SELECT count(*) FROM order_items i WHERE i.order_id = o.id) AS items FROM orders o ORDER BY ite|
-- expect: spend
SELECT customer_id, sum(amount) AS spend FROM orders GROUP BY customer_id ORDER BY sp|
-- expect: spend
SELECT customer_id, sum(amount) AS spend FROM orders GROUP BY customer_id ORDER BY |
-- expect: spend
SELECT customer_id, sum(amount) AS spend FROM orders GROUP BY customer_id HAVING sp|
-- expect: n
SELECT country, count(*) AS n FROM customers GROUP BY country ORDER BY n|
-- expect: n
SELECT country, count(*) AS n FROM customers GROUP BY country ORDER BY country, |
-- expect: full_name
SELECT upper(name) AS full_name FROM customers ORDER BY full|
-- expect: yr
SELECT year(order_date) AS yr, count(*) FROM orders GROUP BY yr ORDER BY y|
-- expect: first_order
SELECT customer_id, min(order_date) AS first_order FROM orders GROUP BY customer_id ORDER BY first_order DESC, |
-- expect: status
WITH o AS (SELECT * FROM orders) SELECT * FROM o WHERE o.st|
-- expect: id
SELECT * FROM customers c WHERE c.id IN (SELECT customer_id FROM orders o WHERE o.customer_id = c.i|)
-- expect: customer_id
SELECT * FROM customers c WHERE c.id IN (SELECT cust| FROM orders o)
-- expect: recent_orders
WITH x AS (SELECT 1) SELECT * FROM rece|
-- expect: c2
WITH c1 AS (SELECT 1 AS a), c2 AS (SELECT 2 AS b) SELECT * FROM c1 JOIN c|
-- expect: b
WITH c1 AS (SELECT 1 AS a), c2 AS (SELECT 2 AS b) SELECT c2.| FROM c1 JOIN c2
-- expect: a
WITH c1 AS (SELECT 1 AS a), c2 AS (SELECT 2 AS b) SELECT c1.| FROM c1 JOIN c2
