// ESLint rule: no area spells the vendor namespace. The OEM name is a setting (--oem-name), and
// src/protocol/naming.ts owns it: areas write the canonical token through OEM, oemType() and
// controllerType(), and the protocol layer serves the configured name. Refused: a string (or a
// template's text) that names it as an identifier — "Vendor", "VendorMC", "#VendorX.Y",
// "Oem/Vendor/…", "Vendor.1.0…", "Vendor-IML" — and the key `Vendor` of an `Oem` object or of a
// member read from one (`Oem: { Vendor: … }`, `body.Oem?.Vendor`). Prose ("Vendor extension of…")
// is left alone: a person reads it.

const TOKEN = 'Vendor';
const SPELLED = new RegExp(`(^|[#/])${TOKEN}(?=$|[A-Z0-9._/-])`);

const keyName = (node) => (node.type === 'Identifier' ? node.name : node.type === 'Literal' ? String(node.value) : undefined);

export default {
  meta: {
    type: 'problem',
    docs: { description: 'areas name the vendor namespace through protocol/naming.ts, never by spelling it' },
    messages: {
      spelled:
        "'{{text}}' spells the OEM name: write OEM, oemType(…) or controllerType(…) from protocol/naming.ts (the service serves --oem-name)",
      key: 'the Oem key is spelled: write [OEM] (protocol/naming.ts; the service serves --oem-name)',
    },
    schema: [],
  },
  create(context) {
    const check = (node, text) => {
      if (SPELLED.test(text)) context.report({ node, messageId: 'spelled', data: { text } });
    };
    return {
      Literal(node) {
        if (typeof node.value !== 'string') return;
        // An object key is checked as a key below; an import path is a module.
        if (node.parent.type === 'Property' && node.parent.key === node && !node.parent.computed) return;
        if (node.parent.type === 'ImportDeclaration' || node.parent.type === 'ExportNamedDeclaration') return;
        check(node, node.value);
      },
      TemplateElement(node) {
        check(node, node.value.cooked ?? node.value.raw);
      },
      Property(node) {
        if (node.computed || keyName(node.key) !== TOKEN) return;
        // The object is an Oem member's value, or what it is made from (`Oem: t.object({ Vendor: … })`).
        let holder = node.parent.parent;
        if (holder?.type === 'CallExpression') holder = holder.parent;
        if (holder?.type === 'Property' && keyName(holder.key) === 'Oem') context.report({ node: node.key, messageId: 'key' });
      },
      MemberExpression(node) {
        if (node.computed || keyName(node.property) !== TOKEN) return;
        const object = node.object.type === 'ChainExpression' ? node.object.expression : node.object;
        if (object.type === 'MemberExpression' && keyName(object.property) === 'Oem')
          context.report({ node: node.property, messageId: 'key' });
      },
    };
  },
};
