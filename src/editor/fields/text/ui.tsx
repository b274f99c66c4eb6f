import { Flex } from '@keystar/ui/layout';
import { Text } from '@keystar/ui/typography';
import { CheckedText } from '../checked/ui.tsx';

/** A one-line text, with the heading the page makes of it under it. */
export function HeadingInput(
  props: Parameters<typeof CheckedText>[0] & { heading(text: string): string },
) {
  const { heading, ...text } = props;
  return (
    <Flex direction="column" gap="regular">
      <CheckedText {...text} />
      <Text size="small" color="neutralSecondary">
        {props.value ? `The page's heading reads: “${heading(props.value)}”` : ''}
      </Text>
    </Flex>
  );
}
