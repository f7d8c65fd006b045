/** A long answer mixing every block the renderer handles, with citations and reference links (one defined late). */
export const CORPUS = `# Travel and expense policy

Employees may book travel through the portal[[1]](https://wiki.example.com/finance/travel). Read the [full policy][policy]
before you book, and ask *your manager* for **approval** of anything over ~~500~~ 600 EUR.

## What is covered

1. Flights in economy class
   - longer than 6 hours: premium economy
   - with a layover: *lounge access* is not covered
2. Hotels up to the city rate[[2]](https://wiki.example.com/finance/hotels)

   The city rate is listed per country.
3. Meals, as a daily allowance

- [x] book through the portal
- [ ] keep receipts

| Item | Limit | Receipt |
|:-----|------:|:-------:|
| Taxi | 50 EUR | yes |
| Train, 1st class | none | **yes** |
| Per diem | 40 EUR | no |

> Note: exceptions need written approval from Finance.
> See the FAQ for examples.

\`\`\`python
def allowance(days: int, rate: float = 40.0) -> float:
    # half a day counts fully
    return days * rate

print(allowance(3))
\`\`\`

Some text with \`inline code\`, a link to <https://status.example.com>, and a snake_case_word.

---

### Claims

Submit claims within 30 days[[3]](https://wiki.example.com/finance/claims). Use the [claims form][form] and attach
scans; a photo is fine.

    indented code block
    second line

Setext heading
--------------

Final paragraph with a footnote-like reference[^1] and an escaped \\*star\\*.

[policy]: https://wiki.example.com/finance/travel "Travel policy"
[form]: https://forms.example.com/claims
`;

/** Block shapes whose extent depends on text far ahead: loose lists, HTML blocks and comments spanning blank lines, nested containers. */
export const EDGE_CORPUS = `<!-- a comment

that spans blank lines -->

<details>

<summary>Raw HTML is shown as text</summary>

</details>

- loose item one

- loose item two

  continued paragraph

- loose item three

1. first
2. second

10) other start

> quote with a list
> - a
> - b
>
> > nested quote
> > \`\`\`
> > code in a quote
> > \`\`\`

Paragraph
with a lazy continuation
and a hard break\\
here.

    indented code

    with a blank line inside

Term | Value
--- | ---
a | b

* * *

Last line without a newline, with a [[4]](https://e.example/4) citation and [a ref][late].

[late]: https://late.example/ref`;
