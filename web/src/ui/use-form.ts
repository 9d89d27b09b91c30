import { useCallback, useMemo, useState } from 'react';

type Errors<V> = Partial<Record<keyof V & string, string>>;
/** The fields of V that hold text. */
type TextKeys<V> = { [K in keyof V & string]: V[K] extends string ? K : never }[keyof V & string];

/**
 * Values, touched fields and server field errors of one form. A field's client error shows once it
 * was touched (core spec §5); a server error shows until the field changes.
 */
export function useForm<V extends object>(initial: V | (() => V)) {
  const [values, setValues] = useState<V>(initial);
  const [touched, setTouched] = useState<Partial<Record<keyof V & string, boolean>>>({});
  const [serverErrors, setServerErrors] = useState<Errors<V>>({});

  const setField = useCallback(<F extends keyof V & string>(field: F, value: V[F]) => {
    setValues((previous) => ({ ...previous, [field]: value }));
    setServerErrors((previous) => {
      if (!(field in previous)) return previous;
      const { [field]: _dropped, ...rest } = previous;
      return rest as Errors<V>;
    });
  }, []);

  /** Replaces several values at once (a changed source clears the broker name). */
  const update = useCallback((next: V) => {
    setValues((previous) => {
      setServerErrors((errors) => {
        const kept = { ...errors };
        for (const key of Object.keys(next) as (keyof V & string)[])
          if (next[key] !== previous[key]) delete kept[key];
        return kept;
      });
      return next;
    });
  }, []);

  const touch = useCallback((field: keyof V & string) => {
    setTouched((previous) => (previous[field] ? previous : { ...previous, [field]: true }));
  }, []);

  const touchAll = useCallback(() => {
    setValues((current) => {
      setTouched(Object.fromEntries(Object.keys(current).map((k) => [k, true])) as typeof touched);
      return current;
    });
  }, []);

  const reset = useCallback((next: V) => {
    setValues(next);
    setTouched({});
    setServerErrors({});
  }, []);

  /** What ties a text field to the form: its value, its changes, touched on blur, the error to show. */
  const bindText = useCallback(
    <F extends TextKeys<V>>(field: F, error: string | undefined) => ({
      value: values[field] as string,
      onValueChange: (value: string) => setField(field, value as V[F]),
      onBlur: () => touch(field),
      error,
    }),
    [values, setField, touch],
  );

  return useMemo(
    () => ({
      values,
      bindText,
      setField,
      update,
      touch,
      touchAll,
      reset,
      setServerErrors,
      /** The error to show for a field: the server's, else the client's once touched. */
      errorOf:
        (clientErrors: Errors<V>) =>
        (field: keyof V & string): string | undefined =>
          serverErrors[field] ?? (touched[field] ? clientErrors[field] : undefined),
    }),
    [values, bindText, setField, update, touch, touchAll, reset, serverErrors, touched],
  );
}

export type FormState<V extends object> = ReturnType<typeof useForm<V>>;
