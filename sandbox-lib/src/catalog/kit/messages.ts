/**
 * @module catalog/kit/messages
 * Every message `validateTree` can answer with, in one place. Rows of the spec's "Tree validation
 * messages" table come first, word for word with the braces filled in; the messages we added for
 * problems the spec has no row for follow (docs/decisions/catalog.md lists them).
 *
 * Naming: a component is written `<Name>` as the spec writes `<Block>` and `<Section>`: `uiFoo` is
 * `<Foo>`, a rich-text node `bulletList` is `<BulletList>`, and a plain text node is `text`.
 */

/** How messages name a node type: `uiActions` → `<Actions>`, `codeBlock` → `<CodeBlock>`, `text` → `text`. */
export function componentName(type: string): string {
  if (type === 'text') return 'text';
  const bare = type.startsWith('ui') && type.length > 2 ? type.slice(2) : type;
  return `<${bare.charAt(0).toUpperCase()}${bare.slice(1)}>`;
}

/** Numbers in messages are written the way the spec's tables write them: 2,000. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** A message that starts with a component name starts with a capital letter (`text` → `Text`). */
function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The spec's rows. */
export const SPEC = {
  rootOrder: (child: string) => `Blocks go header, body, actions, footer: <Block> can't hold ${child} here`,
  cantHold: (parent: string, child: string) => `${sentence(parent)} can't hold ${child} here`,
  needs: (parent: string, what: string) => `${sentence(parent)} needs ${what}`,
  sectionDeep: 'Sections sit only at block, tab or form level, one deep',
  tabsNested: 'Tabs cannot be nested',
  formsNested: 'Forms cannot be nested',
  formEnd: 'A form ends with one submit button and nothing else',
  submitOutside: "Submit buttons belong in a form's last row",
  fieldOutsideForm: (c: string) => `${c} belongs inside a <Form>`,
  wideInColumn: (c: string) => `${c} needs the full width; move it out of the <Column>`,
  stackInStack: 'Stacks cannot hold another stack',
  collapsedSection: 'A collapsed section needs a title or a toggle button',
  noSectionHandle: (handle: string) => `No section has the handle ${handle}`,
  duplicateLabel: (label: string, group: string) => `"${label}" is used twice in this ${group}; labels must be unique`,
  labelInvisible: 'Labels need visible text',
  codeBlockEmpty: 'Code blocks need visible text',
  tooLong: (max: number) => `Keep this to ${formatCount(max)} characters or fewer`,
  listDepth: 'Lists nest at most 2 levels',
  quoteInQuote: 'Quotes cannot hold quotes',
  headingInListOrQuote: "Headings and code blocks can't sit in a list or quote",
  struckLink: "Struck text can't be a link",
  linkedHeaderLinks: "A linked header's title can't hold links",
  linkedItemLinks: "A linked item's title can't hold links",
  sharedNeedsOnChange: (c: string) => `A shared ${c} outside a <Form> needs onChange`,
  audienceNested: (c: string) => `${sentence(c)} sits inside another audience; audiences can't nest`,
  audienceInForm: (c: string) => `${sentence(c)} sits inside a <Form>; put the audience on the <Form>`,
  audienceHere: (c: string, parent: string) => `${sentence(c)} can't carry an audience here; move it onto the enclosing ${parent}`,
  audienceNever: (c: string) => `${sentence(c)} can't carry an audience; set it on a flow element instead`,
  formatting: (c: string, parent: string) => `${sentence(c)} has formatting that's repeated or not allowed inside ${parent}`,
  textEmpty: "Text can't be empty",
  textAttrsOrContent: "Text can't have attrs or content",
  countOnlyIntegration: 'Only integration results carry a count',
  destructiveConfirm: 'Destructive actions need a confirm',
  iconOnToned: "Only neutral callouts take an icon; toned callouts show their tone's glyph",
  tonedIconLabel: 'Toned icons need a label',
  reservedIcon: "That icon is reserved for the service's own controls",
  currencyNeedsCode: 'Currency values need a currency code',
  onlyCurrencyCode: 'Only currency values take a currency code',
  onlyPlainUnit: 'Only plain numbers take a unit',
  onlyNumberColumnFormat: 'Only number columns take a number format',
  progressOverMax: 'Progress value cannot exceed its maximum',
  progressUnitNeedsMax: 'Progress needs a max to show a unit',
  onlySearchSelectedLabel: 'Only search selects take a selectedLabel',
  searchValueNeedsLabel: "A search select's value needs its selectedLabel",
  donutTotal: 'Donut charts need a positive total',
  columnLabelsUnique: 'Column labels must be unique',
  seriesNamesUnique: 'Series names must be unique',
  pointLabelsUnique: 'Point labels must be unique',
  optionLabelsUnique: 'Select option labels must be unique',
} as const;

/** Counts over or under a limit (the spec's "Count over limit" row gives the pattern). */
export const COUNTS = {
  tabs: 'Tabs hold 2 to 6 tabs',
  metrics: 'Metrics hold at most 6 metrics',
  metaList: 'Meta lists hold at most 6 items',
  columns: 'Columns hold 2 or 3 columns',
  actions: 'Actions hold at most 5 buttons, then one menu',
  row: 'Rows hold one or two texts or avatar stacks, then at most 3 buttons and menus',
  menu: 'Menus hold at most 12 items',
  tableColumns: 'Tables hold at most 12 columns',
  tableRows: 'Tables hold at most 200 rows',
  tableRowMenu: 'Table rows hold at most 12 menu items',
  chartSeries: 'Charts hold at most 3 series',
  chartPoints: 'Chart series hold at most 24 points',
  donut: 'Donut charts hold one series of up to 5 points',
  metricTrend: 'Metric trends hold 2 to 24 points',
  avatarStack: 'Avatar stacks hold at most 50 people',
  selectOptions: 'Selects hold at most 100 options',
  choices: 'Choice groups hold at most 20 choices',
  audience: 'Audiences hold at most 50 members',
  images: 'Blocks hold at most 10 images',
  components: 'Blocks hold at most 250 components',
  depth: 'Blocks nest at most 12 levels deep',
  size: 'Blocks serialize to at most 64 KB',
  actionTable: 'Blocks hold at most 64 actions',
  headerAdornments: 'Headers hold at most 3 badges, statuses and icons',
  itemAdornments: 'Items hold at most 3 badges, statuses and icons',
} as const;

/** Problems the spec has no row for (decisions/catalog.md). */
export const OURS = {
  rootNotBlock: 'Trees start with a <Block>',
  notANode: 'Nodes are objects with a type',
  unknownType: (type: string) => `Unknown node type "${type}"`,
  unknownField: (c: string, key: string) => `${sentence(c)} has an unknown field "${key}"`,
  attrsNotObject: (c: string) => `${sentence(c)} attrs must be an object`,
  contentNotList: (c: string) => `${sentence(c)} content must be a list`,
  unknownAttr: (c: string, attr: string) => `${sentence(c)} doesn't take the attribute "${attr}"`,
  needsAttr: (c: string, attr: string) => `${sentence(c)} needs "${attr}"`,
  attrType: (c: string, attr: string, expected: string) => `${sentence(c)}'s "${attr}" must be ${expected}`,
  httpsUrl: (c: string, attr: string) => `${sentence(c)}'s "${attr}" must be an https:// URL`,
  textNotString: 'Text nodes hold a string in "text"',
  marksNotList: 'Text marks must be a list',
  unknownIcon: (name: string) => `There is no icon named "${name}"`,
  noAction: (ref: string) => `No action has the reference ${ref}`,
  actionTableShape: 'The action table maps references to { name, args }',
  actionRefFormat: (ref: string) => `"${ref}" is not an action reference; use a0, a1, …`,
  actionName: 'Action names use 1 to 64 characters from a-z, 0-9, _, . and -',
  actionArgsSize: 'Action arguments serialize to at most 2 KB',
  actionArgsJson: 'Action arguments must be plain JSON',
  actionUnknownField: (key: string) => `Action table entries hold only name and args, not "${key}"`,
  buttonTypeAttr: (buttonType: string, attr: string) => `A ${buttonType} button doesn't take "${attr}"`,
  onlyActionsDestructive: 'Only buttons and menu items that run an action can be destructive',
  onlyActionsConfirm: 'Only buttons and menu items that run an action take a confirm',
  menuItemTarget: '<MenuItem> takes either "action" or "href"',
  duplicateHandle: (handle: string) => `Two sections share the handle ${handle}; handles must be unique`,
  duplicateFieldName: (name: string) => `"${name}" names two fields; field names must be unique across the block`,
  duplicateValue: (what: string) => `${what} values must be unique`,
  valueNotOffered: (value: string, what: string) => `"${value}" is not one of the ${what}`,
  valueNotList: 'A choice group takes a list of values when multiple, one value otherwise',
  selectSource: '<Select> takes either options or a search action',
  percentFraction: 'Percent values are fractions: 0.08 means 8%',
  donutNegative: "Donut charts can't hold negative values",
  tableCells: 'Each table row needs one cell per column',
  duplicateAudienceMember: 'Audience members must be unique',
  audienceEmpty: 'Audiences need at least one member',
  formInputSize: 'Form values serialize to at most 16 KB',
  calloutEmpty: '<Callout> needs a title or text',
} as const;
