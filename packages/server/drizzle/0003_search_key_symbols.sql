-- unaccent's rules differ between PostgreSQL 15 and 17 (PGlite) for a few symbols (ª º ¼ ½ ¾,
-- © ®): map them to a space before unaccent, so both databases (and the JS searchKey) agree.
-- Existing documents are rebuilt only where such a symbol occurs.
CREATE OR REPLACE FUNCTION poruch_search_key(input text) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT btrim(regexp_replace(translate(regexp_replace(lower(unaccent(
    translate(
      replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(
        translate(coalesce(input, ''),
          'АБВГҐДЕЄЖЗИІЇЙКЛМНОПРСТУФХЦЧШЩЬЮЯЫЭЪЁ©®ªº¼½¾''’ʼ`‘ʹ',
          'абвгґдеєжзиіїйклмнопрстуфхцчшщьюяыэъё       '),
        'зг', 'zgh'), 'ж', 'zh'), 'х', 'kh'), 'ц', 'ts'), 'ч', 'ch'), 'щ', 'shch'), 'ш', 'sh'),
        'є', 'ie'), 'ю', 'iu'), 'я', 'ia'), 'ё', 'io'),
      'абвгґдезиіїйклмнопрстуфыэьъ',
      'abvhgdeziiiiklmnoprstufie')
  )), '[^a-z0-9]+', ' ', 'g'), 'yjw', 'iiv'), '([a-z])\1+', '\1', 'g'))
$$;
--> statement-breakpoint
UPDATE services SET name = name
 WHERE concat_ws(' ', name, description_ua, description_other, address, original_place) ~ '[©®ªº¼½¾]';
--> statement-breakpoint
UPDATE vacancies SET name = name
 WHERE concat_ws(' ', name, requirements, description) ~ '[©®ªº¼½¾]';
