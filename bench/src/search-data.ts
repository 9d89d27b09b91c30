import { type EventData, NOTE_CATEGORIES, type NoteCategory, streams } from '@mrn/contracts';
import { type EventMetadata, newId, type StreamAppend } from '@mrn/platform';

/**
 * Synthetic but realistic merchants for the search suite: legal names are a first word, a second
 * word and a suffix, so a two-word keyword ("harbor bakery") matches a dozen or two merchants and a
 * single common word ("harbor") thousands, as in a real network.
 */
export const FIRST_WORDS = unique(`
  Summit Harbor Keystone Blue Golden Silver Eagle Pioneer Liberty Heritage Evergreen Pinnacle Cedar Maple
  Willow Birch Aspen Cypress Magnolia Sunrise Sunset Horizon Coastal Prairie Mountain Valley River Lakeside
  Bayside Northern Southern Eastern Western Central Atlantic Pacific Gulf Desert Canyon Mesa Redwood Sequoia
  Granite Marble Copper Iron Crystal Diamond Emerald Sapphire Ruby Amber Ivory Onyx Cobalt Crimson Scarlet
  Azure Indigo Violet Jade Pearl Coral Falcon Hawk Raven Phoenix Lion Tiger Bear Wolf Bison Mustang Stallion
  Patriot Frontier Alliance Premier Prime Royal Imperial Regal Crown Empire Legacy Landmark Cornerstone
  Bedrock Anchor Beacon Lighthouse Compass Meridian Zenith Apex Vertex Vanguard Sentinel Guardian Titan
  Atlas Orion Polaris Nova Stellar Galaxy Cosmos Comet Meteor Lunar Bright Clear Fresh Urban Metro Capital
  Citywide Hometown Village Country Rustic Vintage Modern Classic Elite Superior Reliable Trusted Quality
  Precision Rapid Swift Express Smart Bold Brave Noble Grand Majestic Brookside Riverside Hillside Parkside
  Westfield Northfield Springfield Fairview Clearwater Stonebridge Ironwood Oakridge Pinecrest Highland
  Midland Heartland Tidewater Bluewater Blackstone Whitestone Redstone Greystone Goldleaf Silverline
  Sterling Kingston Princeton Hamilton Franklin Jefferson Madison Lincoln Washington Monroe Jackson Harrison
  Carter Wilson Taylor Anderson Thompson Martinez Garcia Rodriguez Hernandez Lopez Gonzalez Nguyen Patel
  Chen Murphy Sullivan Kelly Rossi Bianchi Schmidt Mueller Novak Kowalski Ivanov Cohen Shapiro Friedman
  Walsh Brennan Donovan Fitzgerald Gallagher Reyes Morales Ortiz Ramos Castillo Vargas Mendoza Silva Santos
  Costa Pereira Alvarez Romero Navarro Dominguez Delgado Herrera Medina Aguilar Rivera Flores Torres Gomez
  Jimenez Moreno Sanchez Ramirez Campbell Mitchell Roberts Phillips Evans Turner Parker Collins Edwards
  Stewart Morris Rogers Morgan Cooper Richardson Howard Peterson Watson Brooks Sanders Bennett Barnes
  Henderson Coleman Jenkins Patterson Hughes Butler Simmons Foster Bryant Alexander Russell Griffin Myers
  Graham Wallace Reynolds Fisher Harper Mason Dixon Palmer Wagner Warren Knight Hudson Spencer Stephens
  Gardner Pierce Matthews Arnold Watkins Olson Carroll Duncan Snyder Cunningham Bradley
`);

export const SECOND_WORDS = unique(`
  Diner Bakery Cafe Grill Bistro Pizzeria Taqueria Deli Catering Brewing Coffee Juice Creamery Market
  Grocery Foods Farms Produce Meats Seafood Auto Motors Tire Collision Transmission Towing Trucking
  Logistics Freight Transport Courier Moving Storage Construction Builders Roofing Plumbing Electric Heating
  Cooling Landscaping Lawn Paving Concrete Masonry Painting Flooring Cabinets Carpentry Glass Windows Doors
  Fencing Pools Energy Fuel Welding Machining Fabrication Manufacturing Industries Supply Wholesale
  Distribution Imports Exports Trading Retail Outlet Boutique Apparel Fashion Shoes Jewelry Furniture
  Mattress Appliance Electronics Wireless Computers Software Technologies Systems Networks Solutions
  Consulting Services Staffing Marketing Media Printing Signs Graphics Design Studio Photography Events
  Entertainment Music Fitness Yoga Spa Salon Barbershop Nails Beauty Cosmetics Wellness Health Medical
  Dental Chiropractic Pharmacy Clinic Therapy Homecare Pediatrics Veterinary Grooming Kennel Daycare Academy
  Learning Tutoring Hardware Lumber Nursery Garden Florist Flowers Gifts Books Toys Games Hobby Sports
  Outdoors Marine Boats Cycles Powersports Rentals Realty Properties Homes Housing Management Investments
  Holdings Ventures Partners Group Enterprises Associates Brothers Sons Family Hospitality Hotel Lodge Motel
  Travel Tours Limousine Laundry Cleaners Janitorial Cleaning Restoration Security Locksmith Alarm
  Insurance Accounting Bookkeeping Notary Mortgage Lending Pawn Cellular Vapor Liquor Wine Spirits Tavern
  Pub Lounge Nightclub Billiards Bowling Arcade Cinema Theater Gallery Framing Tattoo Cigars Bagels Donuts
  Cupcakes Chocolates Candy Smoothies Burgers Wings Barbecue Steakhouse Sushi Noodles Ramen Kitchen Eatery
  Cantina Tacos Bakehouse Provisions Mercantile Emporium Depot Warehouse Workshop Garage Detailing Carwash
  Lube Parts Salvage Recycling Disposal Excavating Grading Drilling Septic Irrigation Drywall Insulation
  Siding Gutters Decks Remodeling Renovations Interiors Upholstery Tailoring Alterations Embroidery Uniforms
  Textiles
`);

const SUFFIXES = ['LLC', 'Inc', 'Corp', 'Co'];

const PLACES: [state: string, cities: string[]][] = [
  ['AL', ['Birmingham', 'Mobile', 'Huntsville']],
  ['AZ', ['Phoenix', 'Tucson', 'Mesa', 'Scottsdale']],
  ['CA', ['Los Angeles', 'San Diego', 'San Jose', 'Fresno', 'Sacramento', 'Oakland', 'Long Beach']],
  ['CO', ['Denver', 'Colorado Springs', 'Aurora']],
  ['CT', ['Hartford', 'New Haven', 'Stamford']],
  ['FL', ['Miami', 'Tampa', 'Orlando', 'Jacksonville', 'Hialeah', 'Fort Lauderdale']],
  ['GA', ['Atlanta', 'Savannah', 'Augusta']],
  ['IL', ['Chicago', 'Aurora', 'Naperville', 'Joliet']],
  ['IN', ['Indianapolis', 'Fort Wayne']],
  ['KY', ['Louisville', 'Lexington']],
  ['LA', ['New Orleans', 'Baton Rouge']],
  ['MA', ['Boston', 'Worcester', 'Springfield']],
  ['MD', ['Baltimore', 'Silver Spring']],
  ['MI', ['Detroit', 'Grand Rapids', 'Lansing']],
  ['MN', ['Minneapolis', 'Saint Paul']],
  ['MO', ['Kansas City', 'Saint Louis']],
  ['NC', ['Charlotte', 'Raleigh', 'Greensboro']],
  ['NJ', ['Newark', 'Jersey City', 'Paterson', 'Elizabeth']],
  ['NV', ['Las Vegas', 'Henderson', 'Reno']],
  ['NY', ['New York', 'Brooklyn', 'Queens', 'Bronx', 'Buffalo', 'Rochester', 'Yonkers']],
  ['OH', ['Columbus', 'Cleveland', 'Cincinnati', 'Toledo']],
  ['OK', ['Oklahoma City', 'Tulsa']],
  ['OR', ['Portland', 'Salem', 'Eugene']],
  ['PA', ['Philadelphia', 'Pittsburgh', 'Allentown']],
  ['SC', ['Columbia', 'Charleston']],
  ['TN', ['Nashville', 'Memphis', 'Knoxville']],
  ['TX', ['Houston', 'Dallas', 'San Antonio', 'Austin', 'Fort Worth', 'El Paso', 'Arlington']],
  ['UT', ['Salt Lake City', 'Provo']],
  ['VA', ['Virginia Beach', 'Richmond', 'Norfolk']],
  ['WA', ['Seattle', 'Spokane', 'Tacoma']],
  ['WI', ['Milwaukee', 'Madison']],
];

const STREETS = unique(`
  Main Oak Pine Maple Cedar Elm Washington Lake Hill Park Church Market Broad Center Spring Ridge Mill
  Union Water Franklin Highland Jefferson Sunset Railroad Lincoln Madison Industrial Commerce Harbor
`);
const STREET_TYPES = ['St', 'Ave', 'Blvd', 'Rd', 'Dr', 'Way', 'Pkwy', 'Ln'];

const INDUSTRIES = [
  'Restaurants',
  'Retail',
  'Construction',
  'Automotive',
  'Trucking',
  'Healthcare',
  'Beauty',
  'Professional Services',
  'Food',
  'Hospitality',
  'Manufacturing',
  'Wholesale',
  'Real Estate',
  'Entertainment',
  'Fitness',
  'Education',
  'Technology',
];

const BROKERS = [
  'Gulf Coast ISO',
  'Empire Funding Partners',
  'Capital Bridge Brokers',
  'Main Street Advance',
  'Lendway ISO',
  'Pinnacle Merchant Group',
  'Fast Track Funding',
  'Sunbelt Capital',
];

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September'];

// Note texts as funders write them: a fact, numbers, a consequence.
const NOTE_TEMPLATES: ((r: Rng) => string)[] = [
  (r) =>
    `Missed ${r.int(2, 15)} of ${r.int(16, 30)} daily debits in ${r.pick(MONTHS)}; caught up in ${r.pick(MONTHS)}.`,
  (r) =>
    `Took a second position ${r.int(2, 40)} days after our funding; now stacked with ${r.int(2, 5)} funders.`,
  (r) =>
    `Blocked ACH after ${r.int(5, 80)} payments; balance $${r.int(2, 90)},${r.int(100, 999)} outstanding.`,
  () => 'Bank statements submitted show altered balances and a deposit that never cleared.',
  (r) =>
    `Owner changed bank accounts without notice; ${r.int(3, 12)} returned payments (R01/R08) in two weeks.`,
  (r) => `Defaulted on a $${r.int(10, 250)},000 advance; file sent to collections in ${r.pick(MONTHS)}.`,
  (r) => `Settled for ${r.int(40, 90)}% of the balance after ${r.int(1, 8)} months of reduced payments.`,
  () => 'Owner requested a payoff letter; no issues to date, paid as agreed.',
  (r) =>
    `Split-pay through the processor; volume dropped ${r.int(20, 70)}% after the switch to a new terminal.`,
  (r) => `Hardship request granted; payments reduced to $${r.int(50, 900)} a day for ${r.int(30, 120)} days.`,
  () => 'Merchant disputes the debits with the bank as unauthorized; contract and voided check on file.',
];

/** Categories a funder picks (Merchant Dispute is for platform administrators). */
const CATEGORIES = NOTE_CATEGORIES.filter((c): c is NoteCategory => c !== 'Merchant Dispute');

/** mulberry32: small, fast, reproducible. */
export class Rng {
  constructor(private state: number) {}
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

function unique(words: string): string[] {
  return [...new Set(words.split(/\s+/).filter(Boolean))];
}

// Merchant i's EIN: an affine map mod 10^9 with a multiplier coprime to 10 is a bijection, so EINs
// are unique, spread over the whole 9-digit space and need no set to check.
const EIN_MULTIPLIER = 387_420_489; // 3^18
const EIN_OFFSET = 123_456_789;
export const einOf = (i: number): string =>
  ((i * EIN_MULTIPLIER + EIN_OFFSET) % 1_000_000_000).toString().padStart(9, '0');

export interface Owner {
  accountId: string;
  userId: string;
}

/**
 * Notes per merchant: every merchant has its first note (an add always carries one), the rest are
 * spread at random, so most merchants have a few and some many. Exactly `notes` in total.
 */
export function noteCounts(merchants: number, notes: number, rng: Rng): Uint8Array {
  const counts = new Uint8Array(merchants);
  for (let i = 0; i < merchants && i < notes; i++) counts[i] = 1;
  for (let extra = notes - merchants; extra > 0; ) {
    const i = Math.floor(rng.next() * merchants);
    if (counts[i]! < 255) {
      counts[i]!++;
      extra--;
    }
  }
  return counts;
}

function metadata(owner: Owner, r: Rng): EventMetadata {
  return {
    actorUserId: owner.userId,
    actorAccountId: owner.accountId,
    onBehalfOfAccountId: null,
    correlationId: newId(),
    causationId: null,
    source: 'web',
    ip: `203.0.113.${r.int(1, 254)}`,
    userAgent:
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0',
  };
}

/**
 * The events of adding merchant `i` as the command side writes them: the EIN reservation on
 * `ein-{digits}`, then MerchantAdded with its first note on `merchant-{id}`, then its later notes
 * (appended here in the same batch, as if added soon after).
 */
export function merchantAppends(i: number, noteCount: number, owner: Owner): StreamAppend[] {
  const r = new Rng(i * 2_654_435_761);
  const merchantId = newId();
  const fein = einOf(i);
  const meta = metadata(owner, r);
  const [state, cities] = r.pick(PLACES);
  const legalName = `${r.pick(FIRST_WORDS)} ${r.pick(SECOND_WORDS)} ${r.pick(SUFFIXES)}`;
  const added: EventData<'MerchantAdded'> = {
    merchantId,
    fein,
    legalName,
    dba: r.chance(0.3) ? `${r.pick(FIRST_WORDS)} ${r.pick(SECOND_WORDS)}` : null,
    street1: r.chance(0.9) ? `${r.int(1, 9999)} ${r.pick(STREETS)} ${r.pick(STREET_TYPES)}` : null,
    street2: r.chance(0.15) ? `Suite ${r.int(1, 40) * 10}` : null,
    city: r.pick(cities),
    state,
    businessPhone: r.chance(0.8) ? `${r.int(201, 989)}${r.int(200, 999)}${r.int(1000, 9999)}` : null,
    businessStartdate: r.chance(0.85)
      ? `${r.int(1985, 2025)}-${pad2(r.int(1, 12))}-${pad2(r.int(1, 28))}`
      : null,
    industry: r.chance(0.9) ? r.pick(INDUSTRIES) : null,
    accountId: owner.accountId,
    userId: owner.userId,
  };
  const notes = Array.from({ length: noteCount }, (_, n) => {
    const broker = r.chance(0.4);
    const data: EventData<'NoteAdded'> = {
      merchantId,
      noteId: newId(),
      category: r.pick(CATEGORIES),
      note: r.pick(NOTE_TEMPLATES)(r),
      submissionSource: broker ? 'broker' : 'in-house',
      brokerName: broker ? r.pick(BROKERS) : null,
      accountId: owner.accountId,
      userId: owner.userId,
      proxiedCreator: null,
    };
    // The first note comes with the add (same command); later ones are commands of their own.
    return { id: newId(), type: 'NoteAdded', data, metadata: n === 0 ? meta : metadata(owner, r) };
  });
  return [
    {
      streamId: streams.ein(fein),
      expectedRevision: 'no_stream',
      events: [{ id: newId(), type: 'EinReserved', data: { fein, merchantId }, metadata: meta }],
    },
    {
      streamId: streams.merchant(merchantId),
      expectedRevision: 'no_stream',
      events: [{ id: newId(), type: 'MerchantAdded', data: added, metadata: meta }, ...notes],
    },
  ];
}

const pad2 = (n: number) => n.toString().padStart(2, '0');

export type KeywordKind = 'two words' | 'one word' | 'misspelt';

/**
 * A keyword a user might type: mostly a name's two words, some single words (either word of a name,
 * each matching thousands), a few typos (nothing contains them: the trigram similarity fallback).
 */
export function keywordTerm(r: Rng): { term: string; kind: KeywordKind } {
  const roll = r.next();
  if (roll < 0.75) return { term: `${r.pick(FIRST_WORDS)} ${r.pick(SECOND_WORDS)}`, kind: 'two words' };
  if (roll < 0.95) return { term: r.pick(r.chance(0.5) ? FIRST_WORDS : SECOND_WORDS), kind: 'one word' };
  const first = r.pick(FIRST_WORDS);
  // Drop one inner letter of the first word: nothing contains it, so the search falls back to similarity.
  const at = r.int(1, first.length - 2);
  return { term: `${first.slice(0, at)}${first.slice(at + 1)} ${r.pick(SECOND_WORDS)}`, kind: 'misspelt' };
}
