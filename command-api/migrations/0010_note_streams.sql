-- Note commands now find a note's merchant in its `note-{id}` stream, written in the same atomic
-- append as the note (command-api/src/domain/merchant/note-registry.ts), so the command side reads
-- nothing but the event store. Notes recorded before that get their stream here, once; the lookup
-- index on the log is no longer needed.
insert into events (stream_id, revision, event_id, type, data, metadata)
select 'note-' || (e.data ->> 'noteId'), 0, gen_random_uuid(), 'NoteRegistered',
       jsonb_build_object('noteId', e.data ->> 'noteId', 'merchantId', e.data ->> 'merchantId'),
       '{"source": "system"}'::jsonb
from events e
where e.type = 'NoteAdded'
order by e.position
on conflict do nothing;

drop index if exists events_note_added;
