// The JSX typings reject what the element would not take: each line below must be an error.
export const wrongTypes = [
  // @ts-expect-error suggestions is an array of strings
  <bot-answer suggestions={3} />,
  // @ts-expect-error mode is 'inline' or 'floating'
  <bot-answer mode="sideways" />,
  // @ts-expect-error the done event's detail has no `text`
  <bot-answer onbot-answer-done={(event) => event.detail.text} />,
];
