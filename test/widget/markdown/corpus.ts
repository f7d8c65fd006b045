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
