// The controller's date and time settings (the vendor DateTime resource): its
// time zone, chosen from the vendor controller's fixed list, and whether the
// host takes the controller's time at POST. The NTP servers are those of
// NetworkProtocol (one setting, two views). The clock itself is the
// controller's; the time zone only changes how local times are offset.
import { baseRefusal } from '../../messages/refusal.js';
import type { DocumentStore } from '../../store/documents.js';

export interface TimeZone {
  readonly Index: number;
  readonly Name: string;
  readonly UtcOffset: string;
  readonly Value: string;
}

const zone = (Index: number, Name: string, UtcOffset: string, Value: string): TimeZone => ({ Index, Name, UtcOffset, Value });

/** The vendor controller's time zones, indexed and spelled as it reports them. */
export const TIME_ZONES: readonly TimeZone[] = [
  zone(0, 'International Date Line West', '-12:00', 'GMT+12:00'),
  zone(1, 'Midway Island, Samoa', '-11:00', 'SST+11:00'),
  zone(2, 'Hawaii', '-10:00', 'HST+10:00'),
  zone(3, 'Marquesas', '-09:30', 'MART+9:30'),
  zone(4, 'Alaska', '-09:00', 'AKST+9:00AKDT+08:00:00,M3.2.0/02:00:00,M11.1.0/02:00:00'),
  zone(5, 'Pacific Time(US & Canada), Tijuana, Portland', '-08:00', 'PST+8:00PDT+07:00:00,M3.2.0/02:00:00,M11.1.0/02:00:00'),
  zone(
    6,
    'Arizona, Chihuahua, La Paz, Mazatlan, Mountain Time (US & Canad',
    '-07:00',
    'MST+7:00MDT+06:00:00,M3.2.0/02:00:00,M11.1.0/02:00:00',
  ),
  zone(7, 'Central America, Central Time(US & Canada)', '-06:00', 'CST+6:00CDT+05:00:00,M3.2.0/02:00:00,M11.1.0/02:00:00'),
  zone(8, 'Bogota, Lima, Quito, Eastern Time(US & Canada)', '-05:00', 'EST+5:00EDT+04:00:00,M3.2.0/02:00:00,M11.1.0/02:00:00'),
  zone(9, 'Caracas, Georgetown', '-04:00', 'VET+4:00'),
  zone(10, 'Atlantic Time(Canada), Santiago', '-04:00', 'AST+4:00ADT+03:00:00,M3.2.0/02:00:00,M11.1.0/02:00:00'),
  zone(11, 'Newfoundland', '-03:30', 'NST+3:30NDT+02:30:00,M3.2.0/02:00:00,M11.1.0/02:00:00'),
  zone(12, 'Brasilia, Buenos Aires, Greenland', '-03:00', 'ART+3:00'),
  zone(13, 'Mid-Atlantic', '-02:00', 'GST+2:00'),
  zone(14, 'Azores, Cape Verde Is.', '-01:00', 'CVT+1:00'),
  zone(15, 'Greenwich Mean Time, Casablanca, Monrovia', '+00:00', 'GMT-0'),
  zone(16, 'Dublin, London', '+00:00', 'WET-0WEST-1,M3.5.0/01:00:00,M10.5.0/02:00:00'),
  zone(17, 'Amsterdam, Berlin, Bern, Rome, Paris, West Central Africa', '+01:00', 'CET-1:00CEST-02:00:00,M3.5.0/01:00:00,M10.5.0/01:00:00'),
  zone(18, 'Athens, Bucharest, Cairo, Jerusalem', '+02:00', 'EET-2:00EEST-03:00:00,M3.5.0/01:00:00,M10.5.0/01:00:00'),
  zone(19, 'Baghdad, Kuwait, Riyadh, Moscow, Istanbul, Nairobi', '+03:00', 'AST-3:00'),
  zone(20, 'Tehran', '+03:30', 'IRST-3:30IRDT-04:30:00,80/00:00:00,264/00:00:00'),
  zone(21, 'Abu Dhabi, Muscat, Baku, Tbilisi, Yerevan', '+04:00', 'GST-4:00'),
  zone(22, 'Kabul', '+04:30', 'AFT-4:30'),
  zone(23, 'Ekaterinburg, Islamabad, Karachi, Tashkent', '+05:00', 'YEKT-5:00'),
  zone(24, 'Chennai, Kolkata, Mumbai, New Delhi', '+05:30', 'IST-5:30'),
  zone(25, 'Kathmandu', '+05:45', 'NPT-5:45'),
  zone(26, 'Almaty, Dhaka, Sri Jayawardenepura', '+06:00', 'ALMT-6:00'),
  zone(27, 'Rangoon', '+06:30', 'MMT-6:30'),
  zone(28, 'Bangkok, Hanio, Jakarta, Novosibirsk, Astana, Krasnoyarsk', '+07:00', 'ICT-7:00'),
  zone(29, 'Beijing, Chongqing, Hong Kong, Urumqi, Taipei, Perth', '+08:00', 'CST-8:00'),
  zone(30, 'Eucla', '+08:45', 'ACWST-08:45'),
  zone(31, 'Osaka, Sapporo, Tokyo, Seoul, Yakutsk', '+09:00', 'JST-9:00'),
  zone(32, 'Adelaide, Darwin', '+09:30', 'ACST-9:30ACDT-10:30:00,M10.1.0/02:00:00,M4.1.0/02:00:00'),
  zone(33, 'Canberra, Melbourne, Sydney, Guam, Hobart, Vladivostok', '+10:00', 'AEST-10:00AEDT-11:00:00,M10.1.0/02:00:00,M4.1.0/02:00:00'),
  zone(34, 'Lord Howe', '+10:30', 'LHST-10:30LHDT11:00'),
  zone(35, 'Chatham', '+10:45', 'CHAST-10:45CHADT-11:45'),
  zone(36, 'Magadan, Solomon Is., New Caledonia', '+11:00', 'MAGT-11:00'),
  zone(37, 'Auckland, Wellington, Fiji, Kamchatka, Marshall Is.', '+12:00', 'NZST-12:00NZDT-13:00:00,M9.5.0/02:00:00,M4.1.0/02:00:00'),
  zone(38, "Nuku'alofa", '+13:00', 'TKT-13:00'),
  zone(39, 'Line Islands', '+14:00', 'LINT-14:00'),
  zone(40, 'Unspecified Time Zone', '+00:00', 'GMT-0'),
];

export interface DateTimeSettings {
  TimeZoneIndex: number;
  PropagateTimeToHost: boolean;
}

const SETTING = 'manager.dateTime';
/** As the controller leaves the factory: Greenwich time, the host keeps its own clock. */
export const DEFAULT_DATE_TIME: DateTimeSettings = { TimeZoneIndex: 15, PropagateTimeToHost: false };

export function readDateTime(store: DocumentStore): DateTimeSettings {
  return { ...DEFAULT_DATE_TIME, ...store.setting<DateTimeSettings>(SETTING, DEFAULT_DATE_TIME).get() };
}

export function writeDateTime(store: DocumentStore, value: DateTimeSettings): void {
  store.setting<DateTimeSettings>(SETTING, DEFAULT_DATE_TIME).set(value);
}

export function timeZoneOf(settings: DateTimeSettings): TimeZone {
  return TIME_ZONES[settings.TimeZoneIndex] ?? TIME_ZONES[15]!;
}

/** The zone a client names by its Index, Name or Value (all given must name the same one). */
export function chooseTimeZone(wanted: { Index?: number; Name?: string; Value?: string }): TimeZone {
  const matches = TIME_ZONES.filter(
    (z) =>
      (wanted.Index === undefined || z.Index === wanted.Index) &&
      (wanted.Name === undefined || z.Name === wanted.Name) &&
      (wanted.Value === undefined || z.Value === wanted.Value),
  );
  const found = matches[0];
  if (!found) {
    const [prop, value] =
      wanted.Index !== undefined
        ? ['Index', String(wanted.Index)]
        : wanted.Name !== undefined
          ? ['Name', wanted.Name]
          : ['Value', String(wanted.Value)];
    throw baseRefusal('PropertyValueNotInList', value, `TimeZone/${prop}`).about(`TimeZone/${prop}`);
  }
  return found;
}
