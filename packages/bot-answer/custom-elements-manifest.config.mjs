/**
 * The Custom Elements Manifest (dist/custom-elements.json), read by editors, Storybook and other tools.
 * It comes from the element's source and JSDoc: its properties and their attributes from its Lit-style
 * `static properties`, its events, parts and CSS custom properties from the class's tags.
 */
export default {
  globs: ['src/widget/index.ts', 'src/widget/register.ts', 'src/widget/bot-answer.ts'],
  outdir: 'dist',
  litelement: true,
  // package.json names the manifest itself (`customElements`); the build does not rewrite it.
  packagejson: false,
  plugins: [publicApiOnly()],
};

/**
 * Keeps the public surface only: exported classes (not the module-internal `register` function that defines
 * the element), and no private or protected members. Lit-style internal state (`state: true` in
 * `static properties`) has no attribute, though the analyzer lists one for each; those go too. An attribute
 * the declaration does not name is the property's name in kebab case, as the element reads it
 * (src/widget/reactive-element.ts), where the analyzer would write the property's name.
 */
function publicApiOnly() {
  const hidden = (member) => member.privacy === 'private' || member.privacy === 'protected' || member.name.startsWith('_');
  const kebab = (name) => name.replace(/[A-Z]/g, '-$&').toLowerCase();
  return {
    name: 'bot-answer:public-api-only',
    packageLinkPhase({ customElementsManifest }) {
      for (const mod of customElementsManifest.modules) {
        const exported = new Set((mod.exports ?? []).map((e) => e.declaration?.name));
        mod.declarations = (mod.declarations ?? []).filter((d) => exported.has(d.name) && d.kind != 'function');
        for (const d of mod.declarations) {
          if (d.members) d.members = d.members.filter((m) => !hidden(m));
          if (d.attributes) d.attributes = d.attributes.filter((a) => !a.fieldName?.startsWith('_') && !a.name.startsWith('_'));
          for (const a of d.attributes ?? []) if (a.name == a.fieldName) a.name = kebab(a.name);
          for (const m of d.members ?? []) if (m.attribute && m.attribute == m.name) m.attribute = kebab(m.attribute);
        }
      }
    },
  };
}
