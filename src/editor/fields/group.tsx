import { Flex } from '@keystar/ui/layout';
import { Heading, Text } from '@keystar/ui/typography';
import type { ReactNode } from 'react';

/** A group of inputs under one label, laid out as Keystatic lays out its own object fields. */
export function Group(props: { label: string; description?: string; children: ReactNode }) {
  return (
    <Flex direction="column" gap="large" role="group" aria-label={props.label}>
      <Flex direction="column" gap="regular">
        <Heading size="small" elementType="h3">
          {props.label}
        </Heading>
        {props.description && (
          <Text size="small" color="neutralSecondary">
            {props.description}
          </Text>
        )}
      </Flex>
      {props.children}
    </Flex>
  );
}
