// ESLint rule: only the composition root makes the controller's parts. A `new` of a class declared
// in src/domain/, src/platform/ or src/store/ is refused in the files the rule is applied to (every
// layer of src/), whatever the class is called there (the type checker resolves aliases and
// re-exports). Allowed: Error subclasses and the classes named in the `values` option (values, not
// parts), a class making instances of itself (its static factories) or one its module does not
// export, and the private parts a class makes for itself, listed in the `privateParts` option
// under the file that makes them.
import { relative, sep } from 'node:path';
import ts from 'typescript';

const PART = /^src\/(domain|platform|store)\//;

export default {
  meta: {
    type: 'problem',
    docs: { description: 'only the composition root (src/app.ts, src/compose/) constructs the domain, platform and store classes' },
    messages: {
      construct:
        "{{name}} is one of the controller's parts ({{file}}): only the composition root (src/app.ts, src/compose/) makes one; take it from Services, or pass it in",
    },
    schema: [
      {
        type: 'object',
        properties: {
          values: { type: 'array', items: { type: 'string' } },
          privateParts: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
        },
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const services = context.sourceCode.parserServices;
    const checker = services.program.getTypeChecker();
    const here = repoPath(context.cwd, context.filename);
    const allowed = new Set([...(context.options[0]?.values ?? []), ...(context.options[0]?.privateParts?.[here] ?? [])]);
    return {
      NewExpression(node) {
        const symbol = checker.getTypeAtLocation(services.esTreeNodeToTSNodeMap.get(node.callee)).getSymbol();
        const decl = symbol?.valueDeclaration;
        if (!decl || !ts.isClassDeclaration(decl) || !isExported(checker, symbol, decl)) return;
        const file = repoPath(context.cwd, decl.getSourceFile().fileName);
        if (!PART.test(file) || isError(checker, symbol) || allowed.has(symbol.name)) return;
        // A class's own static factories (loadOrCreate...).
        if (context.sourceCode.getAncestors(node).some((a) => services.esTreeNodeToTSNodeMap.get(a) === decl)) return;
        context.report({ node, messageId: 'construct', data: { name: symbol.name, file } });
      },
    };
  },
};

/** Whether the class's module exports it (by any name): a class it keeps to itself is its own business. */
function isExported(checker, symbol, decl) {
  const module = checker.getSymbolAtLocation(decl.getSourceFile());
  return (
    module !== undefined &&
    checker
      .getExportsOfModule(module)
      .some((e) => e === symbol || (e.flags & ts.SymbolFlags.Alias && checker.getAliasedSymbol(e) === symbol))
  );
}

function repoPath(cwd, file) {
  return relative(cwd, file).split(sep).join('/');
}

/** Whether the class is Error or extends it (value objects thrown, not parts). */
function isError(checker, symbol) {
  const seen = new Set();
  const visit = (type) => {
    if (!type || seen.has(type)) return false;
    seen.add(type);
    if (type.getSymbol()?.name === 'Error') return true;
    return (type.isClassOrInterface() ? checker.getBaseTypes(type) : []).some(visit);
  };
  return visit(checker.getDeclaredTypeOfSymbol(symbol));
}
