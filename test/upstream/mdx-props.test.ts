import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { marked, type Tokens } from 'marked';
import { cleanMarkdown } from '../../packages/bot-answer-engine/src/upstream/folder/clean-markdown.js';
import { mdxToMarkdown } from '../../packages/bot-answer-engine/src/upstream/folder/mdx.js';
import { plainText } from '../../packages/bot-answer-engine/src/upstream/search/plain-text.js';

/** An MDX page as a reader gets it: MDX made plain at ingest, then cleaned as every quote is. */
const read = (...lines: string[]): string => cleanMarkdown(mdxToMarkdown(lines.join('\n')));

describe("MDX: reference components' data as text", () => {
  it('renders an array of fields (the AI SDK PropertiesTable) as one list item per field, nested tables indented', () => {
    const text = read(
      '### Parameters',
      '',
      '<PropertiesTable',
      '  content={[',
      '    {',
      "      name: 'api',",
      "      type: 'string',",
      '      description:',
      "        'The API endpoint. It can be a relative path (starting with `/`).',",
      '    },',
      '    {',
      "      name: 'onFinish',",
      "      type: '(result: OnFinishResult) => void',",
      '      isOptional: true,',
      "      description: 'Called when the provider\\'s stream has finished.',",
      '      properties: [',
      '        {',
      "          type: 'OnFinishResult',",
      "          parameters: [{ name: 'object', type: `T | undefined`, description: \"The generated object.\" }],",
      '        },',
      '      ],',
      '    },',
      '  ]}',
      '/>',
      '',
      'After the table.',
    );
    assert.equal(
      text,
      [
        '### Parameters',
        '',
        '- `api` (`string`): The API endpoint. It can be a relative path (starting with `/`).',
        "- `onFinish` (`(result: OnFinishResult) => void`, optional): Called when the provider's stream has finished.",
        '  - `OnFinishResult`:',
        '    - `object` (`T | undefined`): The generated object.',
        '',
        'After the table.',
      ].join('\n'),
    );
  });

  it('renders the table at ingest only: in code blocks and code spans it stays as written', () => {
    const table = "<PropertiesTable content={[{ name: 'a', type: 'string', description: 'The a.' }]} />";
    const code = ['```mdx', table, '```'];
    assert.equal(read('Write:', '', table, '', ...code, '', `Or \`${table}\`.`), ['Write:', '', '- `a` (`string`): The a.', '', ...code, '', `Or \`${table}\`.`].join('\n'));
  });

  it('renders an object of fields by name (the Fumadocs TypeTable) with their defaults', () => {
    const text = read(
      '<TypeTable',
      '  type={{',
      '    percentage: {',
      "      description: 'The percentage of scroll position to display the roll button',",
      "      type: 'number',",
      '      default: 0.2,',
      '    },',
      "    enabled: { type: 'boolean', required: true },",
      '  }}',
      '/>',
    );
    assert.equal(
      text,
      '- `percentage` (`number`, default: `0.2`): The percentage of scroll position to display the roll button\n- `enabled` (`boolean`, required):',
    );
  });

  it("reads a TypeTable whose keys are quoted paths or calls (Fumadocs' `'options.fallbackToDM'`), as the site shows them", () => {
    const text = read(
      '<TypeTable',
      '  type={{',
      "    user: { description: 'User ID string or Author object.', type: 'string | Author' },",
      "    'options.fallbackToDM': {",
      "      description: 'If true, falls back to DM when native ephemeral is not supported.',",
      "      type: 'boolean',",
      '    },',
      "    'fetchData()': { description: 'Fetch the attachment data.', type: '() => Promise<Buffer>' },",
      '  }}',
      '/>',
    );
    assert.equal(
      text,
      [
        '- `user` (`string | Author`): User ID string or Author object.',
        '- `options.fallbackToDM` (`boolean`): If true, falls back to DM when native ephemeral is not supported.',
        '- `fetchData()` (`() => Promise<Buffer>`): Fetch the attachment data.',
      ].join('\n'),
    );
    // A key that spans lines or is only white space names no field: no data, the tag dropped as before.
    for (const key of ["'a\\nb'", "' '"]) assert.equal(read('Before.', '', `<TypeTable type={{ ${key}: { type: 'string', description: 'x' } }} />`, '', 'After.'), 'Before.\n\nAfter.', key);
  });

  it("shows a card's description under its title (Fumadocs' `<Card title description href />`)", () => {
    const text = read(
      '<Cards>',
      '  <Card',
      '    title="Remote Caching"',
      '    href="/docs/core-concepts/remote-caching"',
      '    description="Save time by never doing the same work twice"',
      '  />',
      '  <Card title="Package types" description={types} />',
      '</Cards>',
    );
    assert.equal(text, 'Remote Caching\n\nSave time by never doing the same work twice\n\nPackage types');
    // With no title shown, a description attribute stays out (no caption without its card's title).
    assert.equal(read('Before.', '', '<Widget description="Hidden" />', '', 'After.'), 'Before.\n\nAfter.');
  });

  it("puts a field tag's name and type (Mintlify ParamField, ResponseField) before the text it wraps", () => {
    const text = read(
      '<ParamField query="limit" type="number" default="10" required>',
      '  How many results to return.',
      '</ParamField>',
      '',
      '<ResponseField name="next_cursor" type="string | null">The cursor of the next page.</ResponseField>',
    );
    assert.equal(text, '`limit` (`number`, required, default: `10`): \n  How many results to return.\n\n`next_cursor` (`string | null`): The cursor of the next page.');
  });

  it('drops what is no data as before: variables, interpolated templates, function calls, cards and tabs', () => {
    for (const tag of [
      '<PropsTable data={widgets.auditLog.props} />',
      "<PropertiesTable content={[{ name: 'a', type: `${kind}[]`, description: 'x' }]} />",
      "<PropertiesTable content={fields.map((f) => ({ name: f, type: 'string' }))} />",
      "<PropertiesTable content={[{ name: 'a', type: 'string', description: 'one ' + 'two' }]} />",
      "<Cards items={[{ title: 'Install', href: '/install' }, { title: 'Use', href: '/use' }]} />",
      "<Tabs items={['npm', 'yarn']} />",
      "<PropertiesTable content={[{ name: 'broken', type: 'string', description: 'unclosed }]} />",
      "<PropertiesTable content={[{ name: 'a', type: 'string', description: 'x', get more() { return 'y' } }]} />",
      "<PropertiesTable content={[{ name: 'a', type: 'string', description: 'x', ...shared }]} />",
      "<PropertiesTable content={[{ [key]: 'a', type: 'string', description: 'x' }]} />",
      "<PropertiesTable content={[{ name: 'a', type: /string/, description: 'x' }, { name: 'b', type: 1n, description: 'y' }]} />",
      "<PropertiesTable content={[{ name: 'a', type: 'string', description: 'x' }]); run(); ([]} />",
    ]) {
      assert.equal(read('Before.', '', tag, '', 'After.'), 'Before.\n\nAfter.', tag);
    }
    // A label written in an attribute is what the site shows: its text stays.
    assert.equal(read('Before.', '', '<Callout type="warn" title="Careful" />', '', 'After.'), 'Before.\n\nCareful\n\nAfter.');
  });

  it('reads literals as JavaScript does: any escape, number notation or parentheses; control characters dropped', () => {
    const text = read(
      '<PropertiesTable content={[',
      "  { name: 'caf\\xe9', type: `string`, description: 'Emoji \\u{1F600}, a \\0NUL and a \\bbackspace.' },",
      "  { name: 'mask', type: 'number', default: 0xff, description: ('Bits kept.') },",
      ']} />',
    );
    assert.equal(text, '- `caf\u00e9` (`string`): Emoji \u{1F600}, a NUL and a backspace.\n- `mask` (`number`, default: `255`): Bits kept.');
  });

  it("reads no string into an apostrophe of JSX inside an attribute: the text after the tag stays", () => {
    const text = read("<Card title={<>It's here</>} />", '', 'Keep this paragraph.', '', "<Card title={<>Don't go</>} />", '', "<PropertiesTable content={[{ name: 'a', type: 'string', description: 'The a.' }]} />");
    assert.equal(text, 'Keep this paragraph.\n\n- `a` (`string`): The a.');
  });

  it('keeps the rendered text to text: tags in descriptions are cleaned as the rest of the page, comments never become keys', () => {
    const text = read(
      '<PropertiesTable content={[',
      "  { name: 'html', type: 'string', description: 'Shown <b>bold</b> <Badge>new</Badge><script>alert(1)</script> here.' },",
      "  { name: 'note', // a comment",
      "    type: 'Array<string>', description: 'Kept.' },",
      ']} />',
    );
    assert.equal(text, '- `html` (`string`): Shown bold new here.\n- `note` (`Array<string>`): Kept.');
    assert.doesNotMatch(text, /<\/?(?:b|Badge|script)\b|alert|comment/);
  });
});

describe("MDX: a component's text written as a string expression", () => {
  it('reads `title={"..."}` as the same attribute in quotes, escapes decoded; an interpolating template stays out', () => {
    const text = read(
      '<Diagram id="d1" title={"One definition, seven consumers"}>',
      '',
      'The body.',
      '',
      '</Diagram>',
      '',
      "<Card title={'Single \\'quotes\\''} description={`A template without substitutions.`} />",
      '',
      '<Card title={`Made of ${parts}`} description={"Shown only under a title."} />',
    );
    assert.equal(text, ['One definition, seven consumers', '', 'The body.', '', "Single 'quotes'", '', 'A template without substitutions.'].join('\n'));
  });

  it("puts a field tag's own field on a line of its own before the data it holds (an endpoint's path, then its parameters)", () => {
    const text = read(
      '<Endpoint title="Primary endpoint" method="POST" path="/api/rpc" summary={"All methods are POSTed here."} params={[',
      "  { name: 'id', in: 'body', type: 'string', required: true, description: 'Task id.' },",
      ']}>',
      '',
      'Pass `async: true` to return at once.',
      '',
      '</Endpoint>',
    );
    assert.equal(text, ['Primary endpoint', '', '`/api/rpc`: All methods are POSTed here.', '', '- `id` (`string`, required): Task id.', '', 'Pass `async: true` to return at once.'].join('\n'));
  });

  it('reads a `note` as the text of a row (a file tree, a data model)', () => {
    const text = read(
      '<FileTree title="Project layout" entries={[',
      "  { path: 'app/', note: 'React frontend' },",
      "  { path: 'actions/', note: 'operations shared by the agent and the UI' },",
      ']} />',
      '',
      "<DataModel title=\"Resources\" entities={[{ id: 'r', name: 'resource', note: 'One file.', fields: [{ name: 'path', type: 'string', note: 'Where it lives' }] }]} />",
    );
    assert.equal(
      text,
      [
        'Project layout',
        '',
        '- `app/`: React frontend',
        '- `actions/`: operations shared by the agent and the UI',
        '',
        'Resources',
        '',
        '- `resource`: One file.',
        '  - `path` (`string`): Where it lives',
      ].join('\n'),
    );
  });

  it('reads a grid written as data (`columns` and `rows` of as many cells) as a table marked reads as one', () => {
    const text = read(
      '<Table',
      '  title="Routes"',
      '  columns={["Route", "Renders"]}',
      '  rows={[',
      '    ["/", "ChatRoute (`app/routes/_index.tsx`)"],',
      '    ["/a|b", 2],',
      '  ]}',
      '/>',
      '',
      '<Table columns={["One", "Two"]} rows={[["a"], ["b", "c"]]} />',
    );
    assert.equal(text, ['Routes', '', '| Route | Renders |', '| --- | --- |', '| / | ChatRoute (`app/routes/_index.tsx`) |', '| /a\\|b | 2 |'].join('\n'));
    const table = marked.lexer(text).find((token): token is Tokens.Table => token.type === 'table');
    assert.deepEqual(table?.rows.map((row) => row.map((cell) => cell.text)), [['/', 'ChatRoute (`app/routes/_index.tsx`)'], ['/a|b', '2']]);
  });

  it('shows a tag named in a title as text, as React shows an attribute string; code spans in it kept as written', () => {
    const markdown = mdxToMarkdown(['<Step title={"Wrapping the layout with <AgentSidebar>"} />', '', '<Step title="<script> Processing" />', '', 'Transpiles TypeScript.'].join('\n'));
    assert.equal(plainText(markdown), 'Wrapping the layout with <AgentSidebar> <script> Processing Transpiles TypeScript.');
    assert.equal(read('<Step title="Add `<Provider>` here" />'), 'Add `<Provider>` here');
  });
});

describe('MDX: expressions over several lines', () => {
  it('drops an expression opening a line and running over lines (its output is known only by running it), keeping the text around it', () => {
    const text = read(
      'Following components are available:',
      '',
      '<ul className="grid">',
      '  {components.map((comp) => {',
      '    const link = comp.toLowerCase();',
      '',
      '    return (',
      '      <li key={comp}>',
      '        <a href={`https://ui.example/${link}`}>{comp}</a>',
      '      </li>',
      '    );',
      '',
      '})}',
      '',
      '</ul>',
      '',
      'Each is imported from `zudoku/ui/*`.',
    );
    assert.equal(text, 'Following components are available:\n\nEach is imported from `zudoku/ui/*`.');
  });

  it('keeps an expression within one line, a template literal alone, and code: fenced, or indented in a component', () => {
    const literal = ['<SyntaxHighlight language="ts">', '{`for (const a of b) {', '  log(a);', '}`}', '</SyntaxHighlight>'];
    assert.equal(read(...literal), '{`for (const a of b) {\n  log(a);\n}`}');
    assert.equal(read('Hello {props.name}, you have', '{count} new messages.'), 'Hello {props.name}, you have\n{count} new messages.');
    const fenced = ['<Step>', '    ```json vercel.json', '    {', '      "bunVersion": "1.x"', '    }', '    ```', '</Step>'];
    assert.equal(read(...fenced), '```json vercel.json\n{\n  "bunVersion": "1.x"\n}\n```');
  });
});
