import { Combobox, Loader, TextInput, VisuallyHidden, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { SEARCH_MESSAGES, type CodeOption } from '@ratelens/core';
import { useState } from 'react';
import { codeLabel, type CodeChoice, type MsaChoice } from './search-form.ts';
import { useCodeOptions } from './search-queries.ts';

/** The code search asks the server from 3 typed characters, 100 ms after the last key (§5, §9). */
export const CODE_SEARCH_MIN_CHARS = 3;
export const CODE_SEARCH_DEBOUNCE_MS = 100;

export const CODE_BOX_LABEL = 'Medical Code / Code Description';

interface CodeSearchBoxProps {
  stateCode: string | null;
  msa: MsaChoice | null;
  text: string;
  chosen: CodeChoice | null;
  disabled: boolean;
  onTextChange: (text: string) => void;
  onChoose: (code: CodeChoice) => void;
}

const optionKey = (option: CodeOption) =>
  `${option.codeType}|${option.procedureCode.trim()}|${option.codeDescription.trim()}`;

/**
 * The searchable 'Medical Code / Code Description' box (§2): a combobox whose options come from
 * the server for the chosen state and metro area. Its dropdown says what is going on (type more,
 * searching, nothing found), and the same words reach screen readers through a status region.
 */
export function CodeSearchBox({
  stateCode,
  msa,
  text,
  chosen,
  disabled,
  onTextChange,
  onChoose,
}: CodeSearchBoxProps) {
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const [focused, setFocused] = useState(false);
  const typed = text.trim();
  const [debounced] = useDebouncedValue(typed, CODE_SEARCH_DEBOUNCE_MS);

  const query =
    chosen === null &&
    stateCode !== null &&
    msa !== null &&
    debounced.length >= CODE_SEARCH_MIN_CHARS
      ? { stateCode, msaId: msa.msaID, msaName: msa.msaName, queryText: debounced }
      : null;
  const codes = useCodeOptions(query);

  const searching =
    chosen === null &&
    typed.length >= CODE_SEARCH_MIN_CHARS &&
    (typed !== debounced || codes.isFetching);
  // A failed code search is only logged (§8): the box shows "Nothing found".
  const options: CodeOption[] =
    chosen !== null
      ? [
          {
            procedureCode: chosen.code,
            codeDescription: chosen.description,
            codeType: chosen.codeType ?? '',
          },
        ]
      : query !== null && !searching && codes.isSuccess
        ? codes.data
        : [];

  let message: string | null = null;
  if (chosen === null) {
    if (typed.length < CODE_SEARCH_MIN_CHARS) message = SEARCH_MESSAGES.codeSearchEmpty;
    else if (searching) message = SEARCH_MESSAGES.searching;
    else if (options.length === 0) message = SEARCH_MESSAGES.nothingFound;
  }
  const announcement =
    message ??
    (chosen === null ? `${options.length} ${options.length === 1 ? 'code' : 'codes'} found` : '');

  const byKey = new Map(options.map((option) => [optionKey(option), option]));

  return (
    <>
      <Combobox
        store={combobox}
        onOptionSubmit={(value) => {
          const option = byKey.get(value);
          if (option) {
            onChoose({
              code: option.procedureCode.trim(),
              description: option.codeDescription.trim(),
              codeType: option.codeType.trim() || null,
            });
          }
          combobox.closeDropdown();
        }}
      >
        <Combobox.Target withExpandedAttribute>
          <TextInput
            label={CODE_BOX_LABEL}
            placeholder={CODE_BOX_LABEL}
            value={text}
            disabled={disabled}
            autoComplete="off"
            onChange={(event) => {
              onTextChange(event.currentTarget.value);
              combobox.resetSelectedOption();
              combobox.openDropdown();
            }}
            onClick={() => combobox.openDropdown()}
            onFocus={() => {
              setFocused(true);
              combobox.openDropdown();
            }}
            onBlur={() => {
              setFocused(false);
              combobox.closeDropdown();
            }}
            rightSection={searching ? <Loader size={16} aria-hidden="true" /> : null}
          />
        </Combobox.Target>
        <Combobox.Dropdown>
          <Combobox.Options mah={280} style={{ overflowY: 'auto' }}>
            {options.map((option) => (
              <Combobox.Option
                value={optionKey(option)}
                key={optionKey(option)}
                active={chosen !== null}
              >
                {codeLabel(option.procedureCode, option.codeDescription)}
              </Combobox.Option>
            ))}
            {message !== null && <Combobox.Empty>{message}</Combobox.Empty>}
          </Combobox.Options>
        </Combobox.Dropdown>
      </Combobox>
      <VisuallyHidden role="status" aria-live="polite">
        {focused ? announcement : ''}
      </VisuallyHidden>
    </>
  );
}
