-- Search (packages/server/src/search). Everything here is maintained by the database itself, so every writer
-- (routes, seeds, bulk synthetic data, psql) keeps the search documents consistent.
--
-- * poruch_search_key(text): the search key of any text, in Cyrillic or Latin. It transliterates
--   Ukrainian (KMU 2010) and Russian letters, folds case and accents, keeps [a-z0-9] words and folds
--   common spelling variants (y/j -> i, w -> v, doubled letters -> one), so "Київ", "Kyiv", "Kiev"
--   and "Киев" land close together. src/search/normalize.ts has the identical JS function (the
--   tests check parity): change both together.
-- * services.search_doc, vacancies.search_doc: weighted tsvectors of search keys, GIN-indexed,
--   written by BEFORE triggers. Services: A name, B both descriptions, C address, city, original
--   place and the category's labels (ua + en) and synonyms. Vacancies: A name, B requirements and
--   description, C the service's name.
-- * search_words: the distinct words of all documents, with a trigram index; the query corrects
--   typos against it (pg_trgm candidates, then an edit-distance check in JS).
-- * search_category_terms: the labels and synonyms of each category key.

CREATE OR REPLACE FUNCTION poruch_search_key(input text) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT btrim(regexp_replace(translate(regexp_replace(lower(unaccent(
    translate(
      replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(
        translate(coalesce(input, ''),
          'АБВГҐДЕЄЖЗИІЇЙКЛМНОПРСТУФХЦЧШЩЬЮЯЫЭЪЁ''’ʼ`‘ʹ',
          'абвгґдеєжзиіїйклмнопрстуфхцчшщьюяыэъё'),
        'зг', 'zgh'), 'ж', 'zh'), 'х', 'kh'), 'ц', 'ts'), 'ч', 'ch'), 'щ', 'shch'), 'ш', 'sh'),
        'є', 'ie'), 'ю', 'iu'), 'я', 'ia'), 'ё', 'io'),
      'абвгґдезиіїйклмнопрстуфыэьъ',
      'abvhgdeziiiiklmnoprstufie')
  )), '[^a-z0-9]+', ' ', 'g'), 'yjw', 'iiv'), '([a-z])\1+', '\1', 'g'))
$$;
--> statement-breakpoint
CREATE TABLE search_category_terms (
  category text PRIMARY KEY,
  terms text NOT NULL
);
--> statement-breakpoint
-- The ua and en labels of packages/core/src/i18n/locales/*.json (category.<key>), then synonyms
-- people search by. A test checks that every key and both labels are here.
INSERT INTO search_category_terms (category, terms) VALUES
  ('auto', 'Авто Cars автомобіль автосервіс СТО шиномонтаж автомийка car auto garage mechanic tyres repair автомеханік'),
  ('beauty_and_health', 'Краса та здоров’я Beauty and health перукар перукарня салон краси манікюр педикюр косметолог масаж барбер hairdresser barber hair salon manicure nails cosmetics massage spa'),
  ('commerce', 'Торгівля Commerce магазин крамниця продаж shop store trade retail market'),
  ('clothes', 'Одяг Clothes взуття швачка ательє пошиття clothing fashion shoes tailor'),
  ('psychology', 'Психологія Psychology психолог психотерапевт консультація psychologist therapist therapy counselling'),
  ('tourism', 'Туризм Tourism подорожі екскурсії тури travel tours excursions guide гід'),
  ('culture', 'Культура Culture мистецтво музика театр концерт art music theatre concert'),
  ('education', 'Освіта Education школа курси навчання репетитор уроки school courses tutor lessons teacher вчитель'),
  ('food', 'Їжа Food ресторан кафе кухня пекарня випічка кондитерська доставка restaurant cafe bakery catering cuisine'),
  ('for_animals', 'Для тварин For animals ветеринар грумінг зоомагазин pets vet veterinary grooming'),
  ('for_kids', 'Для дітей For children діти дитячий садок гуртки kids childcare nursery'),
  ('legal_services', 'Юридичні послуги Legal services юрист адвокат нотаріус право документи lawyer attorney solicitor notary law'),
  ('medicine', 'Медицина Medicine лікар клініка стоматолог аптека doctor clinic dentist medical pharmacy'),
  ('other_services', 'Інші послуги Other services послуги services'),
  ('religion', 'Релігія Religion церква парафія храм church parish'),
  ('sports', 'Спорт Sport спортзал тренер фітнес йога sports gym coach fitness yoga'),
  ('translations', 'Переклади Translations перекладач переклад translator translation interpreter'),
  ('architeture', 'Архітектура Architecture архітектор дизайн інтер’єру architect interior design'),
  ('it', 'ІТ IT програміст розробка вебсайти комп’ютери software developer web computers'),
  ('photovideo', 'Фото та відео Photo and video фотограф відеограф фотосесія photographer videographer photography'),
  ('realestate', 'Нерухомість Real estate оренда житло квартира ріелтор rent housing apartment realtor property'),
  ('work', 'Робота Work вакансії працевлаштування job jobs employment recruitment'),
  ('transportations', 'Перевезення Transport перевізник вантажні пасажирські доставка посилки transport delivery shipping moving'),
  ('cleaning', 'Прибирання Cleaning клінінг прибиральниця cleaner housekeeping'),
  ('social_org', 'Громадські організації Community organisations громада спілка фонд волонтери community organisation charity volunteers ngo');
--> statement-breakpoint
CREATE OR REPLACE FUNCTION poruch_service_doc(
  name text, description_ua text, description_other text, address text, city text,
  original_place text, category text
) RETURNS tsvector LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector('simple', poruch_search_key(name)), 'A')
    || setweight(to_tsvector('simple', poruch_search_key(concat_ws(' ', description_ua, description_other))), 'B')
    || setweight(to_tsvector('simple', poruch_search_key(concat_ws(' ', address, city, original_place,
         (SELECT t.terms FROM search_category_terms t WHERE t.category = poruch_service_doc.category)))), 'C')
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION poruch_vacancy_doc(
  name text, requirements text, description text, service_name text
) RETURNS tsvector LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector('simple', poruch_search_key(name)), 'A')
    || setweight(to_tsvector('simple', poruch_search_key(concat_ws(' ', requirements, description))), 'B')
    || setweight(to_tsvector('simple', poruch_search_key(service_name)), 'C')
$$;
--> statement-breakpoint
CREATE TABLE search_words (word text PRIMARY KEY);
--> statement-breakpoint
CREATE INDEX search_words_trgm_idx ON search_words USING gin (word gin_trgm_ops);
--> statement-breakpoint
ALTER TABLE services ADD COLUMN search_doc tsvector NOT NULL DEFAULT ''::tsvector;
--> statement-breakpoint
ALTER TABLE vacancies ADD COLUMN search_doc tsvector NOT NULL DEFAULT ''::tsvector;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION poruch_services_search_doc() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_doc := poruch_service_doc(NEW.name, NEW.description_ua, NEW.description_other,
    NEW.address, NEW.address_details ->> 'city', NEW.original_place, NEW.category);
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION poruch_vacancies_search_doc() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_doc := poruch_vacancy_doc(NEW.name, NEW.requirements, NEW.description,
    (SELECT s.name FROM services s WHERE s.id = NEW.service_id));
  RETURN NEW;
END $$;
--> statement-breakpoint
-- A renamed service renames the C part of its vacancies' documents.
CREATE OR REPLACE FUNCTION poruch_services_rename_vacancies() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE vacancies v
     SET search_doc = poruch_vacancy_doc(v.name, v.requirements, v.description, NEW.name)
   WHERE v.service_id = NEW.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Statement-level, over the transition table: one INSERT per statement, however many rows.
-- Words are never removed here (a stale word only offers a correction that finds nothing);
-- poruch_rebuild_search_words() rebuilds the table.
CREATE OR REPLACE FUNCTION poruch_collect_search_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_words (word)
  SELECT DISTINCT w FROM new_rows, unnest(tsvector_to_array(new_rows.search_doc)) AS w
   WHERE length(w) BETWEEN 3 AND 40 AND w !~ '^[0-9]+$'
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION poruch_rebuild_search_words() RETURNS void LANGUAGE sql AS $$
  DELETE FROM search_words;
  INSERT INTO search_words (word)
  SELECT DISTINCT w FROM (
    SELECT unnest(tsvector_to_array(search_doc)) AS w FROM services
    UNION ALL SELECT unnest(tsvector_to_array(search_doc)) FROM vacancies
  ) t WHERE length(w) BETWEEN 3 AND 40 AND w !~ '^[0-9]+$'
  ON CONFLICT DO NOTHING;
$$;
--> statement-breakpoint
CREATE TRIGGER services_search_doc_insert BEFORE INSERT ON services
  FOR EACH ROW EXECUTE FUNCTION poruch_services_search_doc();
--> statement-breakpoint
CREATE TRIGGER services_search_doc_update
  BEFORE UPDATE OF name, description_ua, description_other, address, address_details, original_place, category
  ON services FOR EACH ROW EXECUTE FUNCTION poruch_services_search_doc();
--> statement-breakpoint
CREATE TRIGGER services_search_rename AFTER UPDATE OF name ON services
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name)
  EXECUTE FUNCTION poruch_services_rename_vacancies();
--> statement-breakpoint
CREATE TRIGGER services_search_words_insert AFTER INSERT ON services
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION poruch_collect_search_words();
--> statement-breakpoint
CREATE TRIGGER services_search_words_update AFTER UPDATE ON services
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION poruch_collect_search_words();
--> statement-breakpoint
CREATE TRIGGER vacancies_search_doc_insert BEFORE INSERT ON vacancies
  FOR EACH ROW EXECUTE FUNCTION poruch_vacancies_search_doc();
--> statement-breakpoint
CREATE TRIGGER vacancies_search_doc_update
  BEFORE UPDATE OF name, requirements, description, service_id
  ON vacancies FOR EACH ROW EXECUTE FUNCTION poruch_vacancies_search_doc();
--> statement-breakpoint
CREATE TRIGGER vacancies_search_words_insert AFTER INSERT ON vacancies
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION poruch_collect_search_words();
--> statement-breakpoint
CREATE TRIGGER vacancies_search_words_update AFTER UPDATE ON vacancies
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION poruch_collect_search_words();
--> statement-breakpoint
-- Documents of rows written before this migration.
UPDATE services SET name = name;
--> statement-breakpoint
UPDATE vacancies SET name = name;
--> statement-breakpoint
CREATE INDEX services_search_doc_idx ON services USING gin (search_doc);
--> statement-breakpoint
CREATE INDEX vacancies_search_doc_idx ON vacancies USING gin (search_doc);
--> statement-breakpoint
-- "Newest" without a query: the first page comes straight off this index.
CREATE INDEX services_approved_created_idx ON services (created_at DESC, id) WHERE status = 'approved';
--> statement-breakpoint
CREATE INDEX vacancies_created_idx ON vacancies (created_at DESC, id);
