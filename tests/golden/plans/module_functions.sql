SELECT c.customer_id,
       haversine_km(48.8566, 2.3522, 51.5074, -0.1278) AS paris_london_km,
       geohash_encode(48.8566, 2.3522, 6) AS cell,
       upper(c.name) AS name
FROM customers c
WHERE in_bbox(48.8566, 2.3522, 40.0, -5.0, 52.0, 10.0)
