/**
 * Cities of the demo catalogue: the gazetteer's name, country, the name as written locally
 * (used in addresses), the Ukrainian phrase "in <city>" (for descriptions), the English name, how
 * many services it gets, and streets to make addresses from.
 */
export interface DemoCity {
  name: string;
  country: string;
  local: string;
  inUa: string;
  en: string;
  services: number;
  streets: readonly string[];
}

const city = (
  name: string,
  country: string,
  local: string,
  inUa: string,
  en: string,
  services: number,
  streets: readonly string[],
): DemoCity => ({ name, country, local, inUa, en, services, streets });

const PL = ['ul. Marszałkowska', 'ul. Puławska', 'ul. Długa', 'ul. Polna', 'al. Jana Pawła II'];
const DE = ['Hauptstraße', 'Bahnhofstraße', 'Schillerstraße', 'Goethestraße', 'Lindenallee'];
const CZ = ['Vinohradská', 'Národní', 'Husova', 'Nádražní'];
const SK = ['Obchodná', 'Hlavná', 'Štúrova'];
const AT = ['Mariahilfer Straße', 'Landstraßer Hauptstraße', 'Praterstraße'];
const CH = ['Bahnhofstrasse', 'Seestrasse', 'Langstrasse'];
const GB = ['High Street', 'Station Road', 'Church Street', 'Victoria Road'];
const IE = ['Main Street', 'Parnell Street', 'Dorset Street'];
const FR = ['rue de la République', 'avenue Jean Jaurès', 'rue Victor Hugo'];
const BE = ['Rue Neuve', 'Chaussée de Louvain', 'Avenue Louise'];
const NL = ['Kalverstraat', 'Stationsweg', 'Kerkstraat'];
const IT = ['Via Roma', 'Via Garibaldi', 'Corso Italia', 'Via Mazzini'];
const ES = ['Calle Mayor', 'Avenida de la Constitución', 'Calle del Carmen'];
const PT = ['Rua Augusta', 'Avenida da Liberdade', 'Rua de Santa Catarina'];
const LT = ['Gedimino pr.', 'Pylimo g.', 'Savanorių pr.'];
const LV = ['Brīvības iela', 'Elizabetes iela'];
const EE = ['Narva mnt', 'Pärnu mnt'];
const NORDIC = ['Storgatan', 'Drottninggatan', 'Kungsgatan'];
const US = ['Main Street', 'Broadway', 'Oak Avenue', 'Maple Street'];
const CA = ['Queen Street West', 'Bloor Street West', 'Main Street'];
const RO = ['Strada Victoriei', 'Bulevardul Unirii'];
const MD = ['bd. Ștefan cel Mare', 'str. Pușkin'];
const HU = ['Andrássy út', 'Rákóczi út'];
const BG = ['bul. Vitosha', 'ul. Graf Ignatiev'];
const GR = ['Odos Ermou', 'Leoforos Syngrou'];
const TR = ['İstiklal Caddesi', 'Atatürk Bulvarı'];
const GE = ['Rustaveli Avenue', 'Chavchavadze Avenue'];
const IL = ['Dizengoff Street', 'Allenby Street'];

export const DEMO_CITIES: readonly DemoCity[] = [
  city('Warsaw', 'PL', 'Warszawa', 'у Варшаві', 'Warsaw', 22, PL),
  city('Kraków', 'PL', 'Kraków', 'у Кракові', 'Kraków', 14, PL),
  city('Wrocław', 'PL', 'Wrocław', 'у Вроцлаві', 'Wrocław', 12, PL),
  city('Gdańsk', 'PL', 'Gdańsk', 'у Гданську', 'Gdańsk', 8, PL),
  city('Poznań', 'PL', 'Poznań', 'у Познані', 'Poznań', 7, PL),
  city('Łódź', 'PL', 'Łódź', 'у Лодзі', 'Łódź', 6, PL),
  city('Lublin', 'PL', 'Lublin', 'у Любліні', 'Lublin', 6, PL),
  city('Rzeszów', 'PL', 'Rzeszów', 'у Жешуві', 'Rzeszów', 5, PL),
  city('Katowice', 'PL', 'Katowice', 'у Катовицях', 'Katowice', 5, PL),
  city('Berlin', 'DE', 'Berlin', 'у Берліні', 'Berlin', 18, DE),
  city('Munich', 'DE', 'München', 'у Мюнхені', 'Munich', 10, DE),
  city('Hamburg', 'DE', 'Hamburg', 'у Гамбурзі', 'Hamburg', 8, DE),
  city('Frankfurt am Main', 'DE', 'Frankfurt am Main', 'у Франкфурті', 'Frankfurt', 7, DE),
  city('Köln', 'DE', 'Köln', 'у Кельні', 'Cologne', 6, DE),
  city('Leipzig', 'DE', 'Leipzig', 'у Лейпцигу', 'Leipzig', 5, DE),
  city('Dresden', 'DE', 'Dresden', 'у Дрездені', 'Dresden', 4, DE),
  city('Stuttgart', 'DE', 'Stuttgart', 'у Штутгарті', 'Stuttgart', 4, DE),
  city('Prague', 'CZ', 'Praha', 'у Празі', 'Prague', 14, CZ),
  city('Brno', 'CZ', 'Brno', 'у Брно', 'Brno', 6, CZ),
  city('Ostrava', 'CZ', 'Ostrava', 'в Остраві', 'Ostrava', 4, CZ),
  city('Bratislava', 'SK', 'Bratislava', 'у Братиславі', 'Bratislava', 6, SK),
  city('Košice', 'SK', 'Košice', 'у Кошице', 'Košice', 4, SK),
  city('Vienna', 'AT', 'Wien', 'у Відні', 'Vienna', 10, AT),
  city('Graz', 'AT', 'Graz', 'у Граці', 'Graz', 3, AT),
  city('Zürich', 'CH', 'Zürich', 'у Цюриху', 'Zurich', 6, CH),
  city('Genève', 'CH', 'Genève', 'у Женеві', 'Geneva', 3, ['Rue du Rhône', 'Rue de Lausanne']),
  city('London', 'GB', 'London', 'у Лондоні', 'London', 14, GB),
  city('Manchester', 'GB', 'Manchester', 'у Манчестері', 'Manchester', 5, GB),
  city('Edinburgh', 'GB', 'Edinburgh', 'в Единбурзі', 'Edinburgh', 4, GB),
  city('Dublin', 'IE', 'Dublin', 'у Дубліні', 'Dublin', 8, IE),
  city('Cork', 'IE', 'Cork', 'у Корку', 'Cork', 3, IE),
  city('Paris', 'FR', 'Paris', 'у Парижі', 'Paris', 8, FR),
  city('Lyon', 'FR', 'Lyon', 'у Ліоні', 'Lyon', 3, FR),
  city('Brussels', 'BE', 'Bruxelles', 'у Брюсселі', 'Brussels', 5, BE),
  city('Amsterdam', 'NL', 'Amsterdam', 'в Амстердамі', 'Amsterdam', 5, NL),
  city('Rotterdam', 'NL', 'Rotterdam', 'у Роттердамі', 'Rotterdam', 3, NL),
  city('Rome', 'IT', 'Roma', 'у Римі', 'Rome', 7, IT),
  city('Milan', 'IT', 'Milano', 'у Мілані', 'Milan', 6, IT),
  city('Naples', 'IT', 'Napoli', 'у Неаполі', 'Naples', 4, IT),
  city('Madrid', 'ES', 'Madrid', 'у Мадриді', 'Madrid', 6, ES),
  city('Barcelona', 'ES', 'Barcelona', 'у Барселоні', 'Barcelona', 6, ES),
  city('Valencia', 'ES', 'València', 'у Валенсії', 'Valencia', 4, ES),
  city('Lisbon', 'PT', 'Lisboa', 'у Лісабоні', 'Lisbon', 6, PT),
  city('Porto', 'PT', 'Porto', 'у Порту', 'Porto', 3, PT),
  city('Vilnius', 'LT', 'Vilnius', 'у Вільнюсі', 'Vilnius', 6, LT),
  city('Riga', 'LV', 'Rīga', 'у Ризі', 'Riga', 4, LV),
  city('Tallinn', 'EE', 'Tallinn', 'у Таллінні', 'Tallinn', 4, EE),
  city('Stockholm', 'SE', 'Stockholm', 'у Стокгольмі', 'Stockholm', 4, NORDIC),
  city('Oslo', 'NO', 'Oslo', 'в Осло', 'Oslo', 4, ['Karl Johans gate', 'Storgata']),
  city('Copenhagen', 'DK', 'København', 'у Копенгагені', 'Copenhagen', 3, [
    'Strøget',
    'Vesterbrogade',
  ]),
  city('Helsinki', 'FI', 'Helsinki', 'у Гельсінкі', 'Helsinki', 3, [
    'Mannerheimintie',
    'Aleksanterinkatu',
  ]),
  city('Bucharest', 'RO', 'București', 'у Бухаресті', 'Bucharest', 4, RO),
  city('Chisinau', 'MD', 'Chișinău', 'у Кишиневі', 'Chișinău', 5, MD),
  city('Budapest', 'HU', 'Budapest', 'у Будапешті', 'Budapest', 4, HU),
  city('Sofia', 'BG', 'София', 'у Софії', 'Sofia', 3, BG),
  city('Athens', 'GR', 'Αθήνα', 'в Афінах', 'Athens', 3, GR),
  city('Istanbul', 'TR', 'İstanbul', 'у Стамбулі', 'Istanbul', 3, TR),
  city('Tbilisi', 'GE', 'Tbilisi', 'у Тбілісі', 'Tbilisi', 3, GE),
  city('Tel Aviv', 'IL', 'Tel Aviv', 'у Тель-Авіві', 'Tel Aviv', 3, IL),
  city('New York City', 'US', 'New York', 'у Нью-Йорку', 'New York', 8, US),
  city('Chicago', 'US', 'Chicago', 'у Чикаго', 'Chicago', 5, US),
  city('Toronto', 'CA', 'Toronto', 'у Торонто', 'Toronto', 8, CA),
  city('Winnipeg', 'CA', 'Winnipeg', 'у Вінніпезі', 'Winnipeg', 3, CA),
];

/** Where owners come from: the place, "from <place>" in Ukrainian and in English. */
export const HOMETOWNS: readonly (readonly [string, string, string])[] = [
  ['Київ', 'з Києва', 'Kyiv'],
  ['Харків', 'з Харкова', 'Kharkiv'],
  ['Одеса', 'з Одеси', 'Odesa'],
  ['Львів', 'зі Львова', 'Lviv'],
  ['Дніпро', 'з Дніпра', 'Dnipro'],
  ['Маріуполь', 'з Маріуполя', 'Mariupol'],
  ['Запоріжжя', 'із Запоріжжя', 'Zaporizhzhia'],
  ['Херсон', 'з Херсона', 'Kherson'],
  ['Миколаїв', 'з Миколаєва', 'Mykolaiv'],
  ['Чернігів', 'з Чернігова', 'Chernihiv'],
  ['Суми', 'із Сум', 'Sumy'],
  ['Полтава', 'з Полтави', 'Poltava'],
  ['Вінниця', 'з Вінниці', 'Vinnytsia'],
  ['Житомир', 'з Житомира', 'Zhytomyr'],
  ['Івано-Франківськ', 'з Івано-Франківська', 'Ivano-Frankivsk'],
  ['Тернопіль', 'з Тернополя', 'Ternopil'],
  ['Чернівці', 'з Чернівців', 'Chernivtsi'],
  ['Бахмут', 'з Бахмута', 'Bakhmut'],
  ['Краматорськ', 'з Краматорська', 'Kramatorsk'],
  ['Ірпінь', 'з Ірпеня', 'Irpin'],
];
