/**
 * @module catalog/spec/actions
 * Things to click: Actions (the block's button bar), Button, Menu, MenuItem, and Row (a line of
 * text or avatars followed by a few buttons).
 */
import { LIMITS } from '../../limits/limits.ts';
import { COUNTS, SPEC } from '../kit/messages.ts';
import { actionRef, buttonKind, menuItemRule } from '../rules/actions.ts';
import { icon } from '../rules/icons.ts';
import { submitPlacement } from '../rules/structure.ts';
import { url } from '../rules/urls.ts';
import { label, oneOf, optional, record, required, text } from '../kit/attr-types.ts';
import { ofType, slot } from './groups.ts';
import { SECTION_HANDLE } from './structure.ts';
import type { AttrSpec, ComponentSpec } from '../kit/spec.ts';

const T = LIMITS.text;
const B = LIMITS.blockTree;

export const BUTTON_TYPES = ['action', 'submit', 'copy', 'link', 'toggle'] as const;
export const INTENTS = ['default', 'primary', 'destructive'] as const;

/** `{ title, body? }`: the question asked before a destructive action runs. */
export const confirmAttr = (): AttrSpec => optional(record({
  title: required(label(T.confirmTitle)),
  body: optional(text({ max: T.confirmBody })),
}));

/** Fields of a menu item; also the items of a table row's menu. */
export const menuItemFields = {
  label: required(label(T.menuItemLabel)),
  action: optional(actionRef()),
  href: optional(url()),
  intent: optional(oneOf(INTENTS)),
  confirm: confirmAttr(),
  icon: optional(icon()),
};

export const actionSpecs: ComponentSpec[] = [
  {
    type: 'uiActions',
    attrs: {},
    content: {
      kind: 'slots',
      slots: [
        slot(ofType('uiButton'), 0, B.buttonsPerActions, 'buttons', { count: COUNTS.actions }),
        slot(ofType('uiMenu'), 0, B.menusAfterActionsButtons, 'a <Menu>', { count: COUNTS.actions }),
      ],
    },
    labelGroup: { name: '<Actions>', of: ['uiButton', 'uiMenu'] },
  },
  {
    type: 'uiButton',
    attrs: {
      buttonType: required(oneOf(BUTTON_TYPES)),
      label: required(label(T.buttonLabel)),
      action: optional(actionRef()),
      href: optional(url()),
      copyText: optional(text({ max: T.copyText, shown: false })),
      target: optional(SECTION_HANDLE),
      intent: optional(oneOf(INTENTS)),
      confirm: confirmAttr(),
      icon: optional(icon()),
    },
    placement: [submitPlacement],
    rules: [buttonKind],
  },
  {
    type: 'uiMenu',
    attrs: { label: required(label(T.menuLabel)), icon: optional(icon()) },
    content: {
      kind: 'slots',
      slots: [slot(ofType('uiMenuItem'), 1, B.itemsPerMenu, 'items', { count: COUNTS.menu, few: SPEC.needs('<Menu>', 'at least one <MenuItem>') })],
    },
    labelGroup: { name: '<Menu>', of: ['uiMenuItem'] },
  },
  {
    type: 'uiMenuItem',
    attrs: menuItemFields,
    rules: [menuItemRule],
  },
  {
    type: 'uiRow',
    attrs: {},
    content: {
      kind: 'slots',
      slots: [
        slot(ofType('uiText', 'uiAvatarStack'), B.leadingTextPerRowMin, B.leadingTextPerRowMax, 'text', { count: COUNTS.row }),
        slot(ofType('uiButton', 'uiMenu'), 0, B.buttonsAndMenusPerRow, 'buttons', { count: COUNTS.row }),
      ],
    },
    labelGroup: { name: '<Row>', of: ['uiButton', 'uiMenu'] },
  },
];
