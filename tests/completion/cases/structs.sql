-- Fields of struct columns at any depth, with and without the table's alias.
-- expect: city
SELECT o.shipping.ci| FROM orders o
-- expect: city, zip, geo
SELECT o.shipping.| FROM orders o
-- expect: zip
SELECT o.shipping.z| FROM orders o
-- expect: lat
SELECT o.shipping.geo.la| FROM orders o
-- expect: lat, lon
SELECT o.shipping.geo.| FROM orders o
-- expect: city
SELECT shipping.ci| FROM orders
-- expect: geo
SELECT shipping.g| FROM orders
-- expect: lon
SELECT shipping.geo.lo| FROM orders
-- expect: city
SELECT * FROM orders o WHERE o.shipping.ci|
-- expect: city
SELECT * FROM orders WHERE shipping.ci|
-- expect: city
SELECT o.shipping.ci| FROM orders o JOIN customers c ON c.id = o.customer_id
-- expect: city
SELECT count(*) FROM orders o GROUP BY o.shipping.ci|
-- expect: city
SELECT orders.shipping.ci| FROM orders
-- expect: lat
SELECT max(o.shipping.geo.la|) FROM orders o
-- expect: shipping
SELECT o.sh| FROM orders o
-- expect: zip
SELECT * FROM orders o ORDER BY o.shipping.z|
-- expect: city
SELECT x.shipping.ci| FROM orders AS x
-- expect: city
SELECT o.shipping.city, o.shipping.zip FROM orders o WHERE o.shipping.ci|
-- expect: lon
SELECT o.shipping.geo.lat, o.shipping.geo.l| FROM orders o
-- expect: city
SELECT * FROM orders o WHERE o.status = 'open' AND o.shipping.ci|
