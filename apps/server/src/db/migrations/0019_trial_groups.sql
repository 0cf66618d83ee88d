-- A trial of a paid product (a tag in its group's config) lives in a group of its own: a default group
-- that holds a trial stops being the one purchases of the product fill (the next purchase makes its own).
UPDATE license_groups SET is_default = false WHERE is_default AND COALESCE(config->>'tag', '') <> '';
-- A trial license made again from its group had no end: it ends when the trial as first started ends
-- (Face Machine 30 days, Nuitrack Analytics 7: the catalogue's trial days).
UPDATE licenses l SET expire_date = s.started + make_interval(days => CASE s.tag WHEN 'FMC Trial' THEN 30 ELSE 7 END)
  FROM (SELECT client_id, product, config->>'tag' AS tag, min(created_at) AS started
          FROM licenses WHERE config->>'tag' IN ('FMC Trial', 'NA Trial') GROUP BY client_id, product, config->>'tag') s
 WHERE l.client_id = s.client_id AND l.product = s.product AND l.config->>'tag' = s.tag
   AND l.expire_date IS NULL AND l.config->'upgraded' IS DISTINCT FROM 'true'::jsonb;
