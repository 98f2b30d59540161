// Shortened and familiar forms of forenames that are not simply the start of the full name
// (those, like Sam / Samantha, are caught by the shortened-forename rule). Each group is one
// family: any two members are a close match.
const GROUPS: string[][] = [
  ['robert', 'bob', 'bobby', 'rob', 'robbie', 'bert'],
  ['william', 'bill', 'billy', 'will', 'willie', 'liam'],
  ['elizabeth', 'liz', 'lizzie', 'beth', 'betty', 'bess', 'eliza', 'elisabeth', 'libby'],
  ['margaret', 'maggie', 'meg', 'peggy', 'marge', 'madge', 'greta'],
  ['james', 'jim', 'jimmy', 'jamie'],
  ['john', 'jack', 'johnny', 'jon'],
  ['jonathan', 'jon', 'jonny', 'nathan'],
  ['richard', 'dick', 'rick', 'ricky', 'rich', 'richie'],
  ['edward', 'ted', 'teddy', 'ned', 'ed', 'eddie'],
  ['henry', 'harry', 'hal', 'hank'],
  ['katherine', 'catherine', 'kathryn', 'kate', 'katie', 'kathy', 'cathy', 'kat', 'kitty'],
  ['sarah', 'sara', 'sally', 'sadie'],
  ['mary', 'molly', 'polly', 'mae', 'maria'],
  ['anthony', 'tony', 'antony'],
  ['alexander', 'alex', 'sandy', 'xander', 'alec', 'sasha'],
  ['alexandra', 'alex', 'sandra', 'sandy', 'lexi', 'sasha'],
  ['andrew', 'andy', 'drew'],
  ['michael', 'mike', 'mick', 'micky', 'mikey'],
  ['nicholas', 'nick', 'nicky', 'nico', 'nicolas'],
  ['christopher', 'chris', 'kit', 'topher'],
  ['christine', 'chris', 'chrissie', 'tina', 'christina'],
  ['charles', 'charlie', 'chuck', 'chas', 'chaz'],
  ['jennifer', 'jen', 'jenny', 'jenna'],
  ['jessica', 'jess', 'jessie'],
  ['rebecca', 'becky', 'becca', 'bex'],
  ['victoria', 'vicky', 'vicki', 'tori'],
  ['stephen', 'steven', 'steve', 'stevie'],
  ['david', 'dave', 'davy'],
  ['thomas', 'tom', 'tommy'],
  ['susan', 'sue', 'susie', 'suzy', 'suzanne'],
  ['patricia', 'pat', 'patsy', 'trish', 'tricia'],
  ['patrick', 'pat', 'paddy'],
  ['frederick', 'fred', 'freddie', 'freddy'],
  ['gregory', 'greg'],
  ['kenneth', 'ken', 'kenny'],
  ['lawrence', 'laurence', 'larry', 'laurie'],
  ['leonard', 'len', 'lenny', 'leo'],
  ['helen', 'nell', 'nellie', 'ellen'],
  ['eleanor', 'ellie', 'nell', 'nora', 'elly'],
  ['deborah', 'debbie', 'deb', 'debra'],
  ['samuel', 'sam', 'sammy'],
  ['samantha', 'sam', 'sammy'],
  ['daniel', 'dan', 'danny'],
  ['benjamin', 'ben', 'benny'],
  ['joseph', 'joe', 'joey'],
  ['josephine', 'jo', 'josie'],
  ['peter', 'pete'],
  ['timothy', 'tim', 'timmy'],
  ['matthew', 'matt', 'matty'],
  ['philip', 'phillip', 'phil', 'pip'],
  ['gerald', 'gerry', 'jerry'],
  ['terence', 'terry', 'terrence'],
  ['raymond', 'ray'],
  ['ronald', 'ron', 'ronnie'],
  ['donald', 'don', 'donnie'],
  ['douglas', 'doug', 'dougie'],
  ['abigail', 'abby', 'abbie', 'gail'],
  ['isabel', 'isabella', 'izzy', 'bella', 'isobel'],
  ['penelope', 'penny'],
  ['dorothy', 'dot', 'dolly', 'dottie'],
  ['ann', 'anne', 'annie', 'anna', 'nan', 'nancy'],
  ['frances', 'fran', 'fanny', 'frankie'],
  ['francis', 'frank', 'frankie'],
];

const FAMILY = new Map<string, Set<string>>();
for (const group of GROUPS) {
  for (const name of group) {
    let set = FAMILY.get(name);
    if (!set) FAMILY.set(name, (set = new Set()));
    for (const other of group) if (other !== name) set.add(other);
  }
}

/** Whether two (folded) forenames are a known familiar form of each other (Bob / Robert). */
export function isNickname(a: string, b: string): boolean {
  return FAMILY.get(a)?.has(b) ?? false;
}
