/**
 * The closers' upcoming meetings, for whoever schedules recordings of them (the recorder): the
 * events of their connected calendars and the meetings scheduled in their connected video-meeting
 * tool. The integrations feature implements this tag (it holds the OAuth tokens, refreshes them,
 * and speaks the providers' APIs); `main.ts` provides it, so the two features never import each
 * other.
 */
import type { ClientId, CloserId } from "@callsight/api-spec"
import { Context, Data, type Effect } from "effect"

/** A closer whose calendar or video-meeting tool is connected (status `connected`). */
export interface ConnectedCalendar {
  readonly clientId: ClientId
  readonly closerId: CloserId
  readonly closerEmail: string
}

/** One meeting of a closer: an event of the calendar, or a meeting scheduled in the video tool. */
export interface CalendarEvent {
  /**
   * Stable across reads (schedule once per event): the calendar's event id, or `video:{meeting
   * id}:{start}` for a meeting of the video tool that is not on the calendar.
   */
  readonly eventId: string
  readonly title: string | null
  /** ISO 8601 instants; all-day events are left out. */
  readonly startsAt: string
  readonly endsAt: string
  /** The first video-meeting link of the event (conference data, location or description), if any. */
  readonly meetingUrl: string | null
  /**
   * The e-mail addresses of the event's invitees as the calendar lists them (the calendar's owner
   * included when listed; rooms and resources left out); none for a meeting of the video tool.
   */
  readonly attendees: ReadonlyArray<string>
}

/**
 * No connected source could be read: tokens refused (the connection is then marked `error`) or the
 * provider unreachable. One source failing while the other answers is not this: its meetings are
 * left out until it answers again.
 */
export class CalendarUnavailable extends Data.TaggedError("CalendarUnavailable")<{
  readonly closerId: CloserId
  readonly message: string
}> {}

export class MeetingCalendars extends Context.Tag("@callsight/MeetingCalendars")<
  MeetingCalendars,
  {
    /** Every closer with a connected calendar or video tool (all tenants, or one), not removed. */
    readonly connected: (clientId?: ClientId) => Effect.Effect<ReadonlyArray<ConnectedCalendar>>
    /**
     * The closer's meetings starting in [from, to), ordered by start: the calendar's events (single
     * events expanded, all-day and cancelled ones left out) and the video tool's scheduled meetings
     * whose link is on no calendar event.
     */
    readonly upcoming: (
      calendar: ConnectedCalendar,
      window: { readonly from: Date; readonly to: Date }
    ) => Effect.Effect<ReadonlyArray<CalendarEvent>, CalendarUnavailable>
  }
>() {}
