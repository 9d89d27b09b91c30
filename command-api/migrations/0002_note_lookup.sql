-- Commands on a note arrive with the note's id only; its merchant stream is found through the log
-- itself (strongly consistent), not through a read model that may lag.
create index events_note_added on events ((data ->> 'noteId')) where type = 'NoteAdded';
