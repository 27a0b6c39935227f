import Foundation
import Testing
import WidgetTestSupport

@testable import WidgetHost

/// The order in which a batch's files are opened: a turn starts once every turn before it is done or
/// skipped, whichever thread took it.
@Suite struct TurnsTests {
    @Test func aTurnWaitsForTheTurnsBeforeItAndStartsWhenTheLastOfThemEnds() async throws {
        let turns = Turns()
        let events = LockedList<String>()
        Thread.detachNewThread {
            turns.wait(for: 2)
            events.append("2 started")
        }
        #expect(try await eventually { turns.waitingTurns == 1 })
        turns.wait(for: 0)
        events.append("0 started")
        turns.done(0)
        events.append("0 done")
        // Turn 1 is still to come: turn 2 waits on.
        #expect(turns.waitingTurns == 1)
        #expect(events.values == ["0 started", "0 done"])
        turns.skip(1)
        #expect(try await eventually { events.values.count == 3 })
        #expect(events.values == ["0 started", "0 done", "2 started"])
        #expect(turns.waitingTurns == 0)
        // A turn whose predecessors are all through starts at once, with nothing to wait on.
        turns.done(2)
        turns.wait(for: 3)
        #expect(turns.waitingTurns == 0)
    }

    @Test func skippedTurnsArePassedOverWhenTheTurnBeforeThemEnds() async throws {
        let turns = Turns()
        let started = LockedList<Int>()
        turns.skip(2)
        turns.skip(3)
        Thread.detachNewThread {
            turns.wait(for: 4)
            started.append(4)
        }
        #expect(try await eventually { turns.waitingTurns == 1 })
        turns.done(0)
        #expect(started.values.isEmpty)
        turns.done(1)
        #expect(try await eventually { started.values == [4] })
    }
}
