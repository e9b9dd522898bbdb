import {
  type FormEvent,
  type HTMLAttributes,
  type InputHTMLAttributes,
  type KeyboardEvent,
  type MouseEvent,
  useId,
  useSyncExternalStore,
} from 'react';
import type { SearchStore } from './core/createSearchStore';
import type { SearchState } from './core/reduceSearch';

/*
 * The thin React layer over the headless store: state through
 * useSyncExternalStore, ARIA and handlers through prop getters that merge the caller's props (the caller's
 * handler runs first, the caller's other props win).
 */

function merge<E>(ours: ((event: E) => void) | undefined, theirs: ((event: E) => void) | undefined) {
  return (event: E) => {
    theirs?.(event);
    ours?.(event);
  };
}

interface SearchBoxApi {
  state: SearchState;
  hint: string;
  ids: { input: string; listbox: string; status: string; option(index: number): string };
  getFormProps(props?: HTMLAttributes<HTMLFormElement>): HTMLAttributes<HTMLFormElement>;
  getInputProps(props?: InputHTMLAttributes<HTMLInputElement>): InputHTMLAttributes<HTMLInputElement>;
  getListboxProps(props?: HTMLAttributes<HTMLElement>): HTMLAttributes<HTMLElement>;
  getOptionProps(index: number, props?: HTMLAttributes<HTMLElement>): HTMLAttributes<HTMLElement>;
}

export function useSearchBox(store: SearchStore): SearchBoxApi {
  const state = useSyncExternalStore(store.subscribe, store.getState, store.getState);
  const baseId = useId();
  const ids = {
    input: `${baseId}-input`,
    listbox: `${baseId}-listbox`,
    status: `${baseId}-status`,
    option: (index: number) => `${baseId}-option-${index}`,
  };
  return {
    state,
    hint: store.hint(),
    ids,
    getFormProps: (props = {}) => ({
      ...props,
      onSubmit: merge((event: FormEvent<HTMLFormElement>) => {
        if (!event.defaultPrevented && !store.submit()) event.preventDefault();
      }, props.onSubmit),
    }),
    getInputProps: (props = {}) => ({
      id: ids.input,
      role: 'combobox',
      type: 'search',
      name: 's',
      autoComplete: 'off',
      'aria-autocomplete': 'list',
      'aria-expanded': state.isOpen,
      'aria-controls': ids.listbox,
      'aria-activedescendant':
        state.isOpen && state.activeIndex >= 0 ? ids.option(state.activeIndex) : undefined,
      value: state.value,
      ...props,
      onChange: merge((event) => store.inputChanged(event.currentTarget.value), props.onChange),
      onFocus: merge(() => store.focused(), props.onFocus),
      onKeyDown: merge((event: KeyboardEvent<HTMLInputElement>) => {
        if (event.defaultPrevented || event.nativeEvent.isComposing) return;
        const input = event.currentTarget;
        const handled = store.keyDown(event.key, {
          ctrlKey: event.ctrlKey,
          metaKey: event.metaKey,
          caretAtEnd:
            input.selectionStart === input.value.length && input.selectionEnd === input.value.length,
        });
        if (handled) event.preventDefault();
      }, props.onKeyDown),
    }),
    getListboxProps: (props = {}) => ({
      id: ids.listbox,
      role: 'listbox',
      ...props,
    }),
    getOptionProps: (index, props = {}) => ({
      id: ids.option(index),
      role: 'option',
      'aria-selected': state.activeIndex === index,
      ...props,
      onMouseMove: merge(() => store.hover(index), props.onMouseMove),
      onMouseLeave: merge(() => store.leave(), props.onMouseLeave),
      onClick: merge((event: MouseEvent) => {
        event.preventDefault();
        store.select(index, { newTab: event.ctrlKey || event.metaKey });
      }, props.onClick),
    }),
  };
}
