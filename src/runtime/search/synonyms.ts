// General English / API vocabulary that names the same thing in different words. A query term
// also searches its group's other members at a reduced weight (RankingParams.synonymWeight), so "film"
// finds a tool described as "movie" without outranking tools that use the query's own word.
import { stem } from './stem.js';

const GROUPS: readonly string[] = [
  'search find lookup query seek',
  'get fetch retrieve obtain',
  'create add new insert',
  'delete remove erase destroy',
  'update edit modify change',
  'send post publish',
  'list enumerate',
  'movie film cinema',
  'song track music tune',
  'weather forecast',
  'image photo picture pic',
  'video clip',
  'price cost pricing',
  'currency forex exchange',
  'stock equity ticker',
  'news headline article',
  'recipe cooking dish meal',
  'job career employment vacancy',
  'translate translation',
  'location place address geocode',
  'email mail',
  'user account profile',
  'company business organization',
  'car vehicle automobile',
  'hotel accommodation lodging',
  'flight airline',
  'football soccer',
  'crypto cryptocurrency bitcoin coin',
  'joke humor funny',
  'quote quotation',
  'lyric lyrics',
  'book novel',
  'city town',
  'country nation',
  'statistic stats stat',
  'schedule fixture calendar',
  'team club squad',
  'player athlete',
  'detail info information',
  'review rating feedback',
  'convert conversion',
  'validate verify validation verification check',
  'dictionary definition define meaning',
  'horoscope zodiac astrology',
  'fact trivia',
  'holiday vacation',
  'nutrition calorie diet',
  'health medical',
  'phone mobile telephone',
  'sms text',
  'ip network',
  'domain website site',
  'url link',
  'product item',
  'shop store ecommerce',
  'event concert festival',
  'show series episode',
  'anime manga',
  'game gaming',
  'tweet twitter',
  'channel stream',
  'live realtime',
  'odds betting bet',
  'match fixture',
  'league competition tournament',
  'population demographic',
  'rank ranking leaderboard',
  'random generate',
  'download export',
  'upload import',
  'summary summarize',
  'sentiment emotion',
  'picture avatar',
  'covid coronavirus pandemic',
];

const byStem = new Map<string, string[]>();
for (const group of GROUPS) {
  const stems = [...new Set(group.split(' ').map(stem))];
  for (const s of stems) {
    const others = stems.filter((other) => other !== s);
    byStem.set(s, [...new Set([...(byStem.get(s) ?? []), ...others])]);
  }
}

/** Other stems that mean the same as this stem (empty when it has none). */
export function synonymsOf(termStem: string): readonly string[] {
  return byStem.get(termStem) ?? [];
}
