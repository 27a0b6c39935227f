import Foundation
import GameData
import WidgetKit

// The game "app": it owns the game's data and writes it into the container it shares with its
// widgets, and plays matches, shown as a Live Activity while they last. Usage: game-app reset | show |
// status TEXT | health NAME VALUE | score PLAYER POINTS | open URL | widgets | match start OPPONENT |
// match score OURS THEIRS PERIOD | match end | pause on|off

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("game-app: \(message)\n".utf8))
    exit(message.hasPrefix("usage") ? 2 : 1)
}

let usage =
    "usage: game-app reset | show | status TEXT | health NAME VALUE | score PLAYER POINTS | open URL | widgets | match start OPPONENT | match score OURS THEIRS PERIOD | match end | pause on|off"

/// The match under way: the app's Live Activity, as the host keeps it.
func currentMatch() -> Activity<MatchAttributes> {
    guard let match = Activity<MatchAttributes>.activities.first(where: { $0.activityState == .active || $0.activityState == .stale }) else {
        fail("no match is under way ('game-app match start OPPONENT' starts one)")
    }
    return match
}
var arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else { fail(usage) }
arguments.removeFirst()

func load() -> GameState {
    do { return try GameStore.load() } catch { fail("\(error)") }
}

/// Saves, then asks the running widget host to show it, as an iOS app calls WidgetCenter after a
/// change. The app is on screen while the user runs it: its reloads are outside the budget.
/// `kind`: the one widget kind the change shows in; nil for all.
func save(_ state: GameState, reloading kind: String? = nil) {
    var state = state
    state.updated = Date()
    do { try GameStore.save(state) } catch { fail("cannot save: \(error)") }
    WidgetCenter.shared.isForeground = true
    let result = kind.map { WidgetCenter.shared.reloadTimelines(ofKind: $0) } ?? WidgetCenter.shared.reloadAllTimelines()
    if case .failure(let error) = result {
        FileHandle.standardError.write(Data("game-app: note: widgets show this at their next reload (\(error))\n".utf8))
    }
}

switch (command, arguments.count) {
case ("reset", 0):
    save(GameState.sample)
    print("wrote the sample game to \((try? GameStore.fileURL().path) ?? "?")")
case ("show", 0):
    let state = load()
    print("status: \(state.status)")
    if let link = SharedDefaults(suiteName: GameStore.groupIdentifier)?.string(forKey: "lastOpenedLink") {
        print("last opened from a widget: \(link)")
    }
    for character in state.characters { print("\(character.name): health \(character.health), level \(character.level)") }
    for score in state.leaderboard { print("\(score.player): \(score.points)") }
case ("status", 1):
    var state = load()
    state.status = arguments[0]
    save(state)
case ("health", 2):
    var state = load()
    guard let value = Int(arguments[1]), (0...100).contains(value) else { fail("health must be a number from 0 to 100, not '\(arguments[1])'") }
    guard let index = state.characters.firstIndex(where: { $0.name == arguments[0] }) else {
        fail("no character named '\(arguments[0])' (characters: \(state.characters.map(\.name).joined(separator: ", ")))")
    }
    state.characters[index].health = value
    save(state)
case ("open", 1):
    // Opened from a widget's deep link: the app "shows" that place and remembers it.
    guard let url = URL(string: arguments[0]), let place = GameLinks.describe(url) else {
        fail("not a link of this game: '\(arguments[0])' (mygame://status, mygame://character/NAME, mygame://player/NAME)")
    }
    SharedDefaults(suiteName: GameStore.groupIdentifier)?.set(url.absoluteString, forKey: "lastOpenedLink")
    print("game-app: showing \(place)")
case ("score", 2):
    var state = load()
    guard let points = Int(arguments[1]) else { fail("points must be a whole number, not '\(arguments[1])'") }
    if let index = state.scores.firstIndex(where: { $0.player == arguments[0] }) {
        state.scores[index].points = points
    } else {
        state.scores.append(GameState.Score(player: arguments[0], points: points))
    }
    // Only the leaderboard shows scores.
    save(state, reloading: "com.mygame.leaderboard")
case ("widgets", 0):
    // Which of the game's widgets are placed, and how they are configured, as an iOS app asks.
    do {
        let placed = try await WidgetCenter.shared.currentConfigurations().filter { $0.kind.hasPrefix("com.mygame.") }
        if placed.isEmpty { print("no game widgets are placed") }
        for widget in placed {
            let values = widget.configurationValues.members.map { "\($0.key)=\($0.value.displayText)" }.joined(separator: ", ")
            print("\(widget.id): \(widget.kind) (\(widget.family.rawValue))\(values.isEmpty ? "" : " \(values)")")
        }
    } catch {
        fail("\(error)")
    }
case ("match", 2) where arguments[0] == "start":
    do {
        let match = try Activity.request(
            attributes: MatchAttributes(opponent: arguments[1]), content: ActivityContent(state: MatchAttributes.ContentState(ours: 0, theirs: 0, period: 1), staleDate: nil))
        print(match.id)
    } catch {
        fail("the match's Live Activity did not start: \(error.localizedDescription)")
    }
case ("match", 4) where arguments[0] == "score":
    guard let ours = Int(arguments[1]), let theirs = Int(arguments[2]), let period = Int(arguments[3]) else {
        fail("the score and period are whole numbers: match score OURS THEIRS PERIOD")
    }
    let match = currentMatch()
    await match.update(ActivityContent(state: MatchAttributes.ContentState(ours: ours, theirs: theirs, period: period), staleDate: nil))
case ("match", 1) where arguments[0] == "end":
    let match = currentMatch()
    await match.end(nil, dismissalPolicy: .default)
    print("\(match.id): \(match.activityState)")
case ("pause", 1) where ["on", "off"].contains(arguments[0]):
    // Paused in the app: its pause control shows it, as iOS's Control Center does after this call.
    SharedDefaults(suiteName: GameStore.groupIdentifier)?.set(arguments[0] == "on", forKey: "paused")
    ControlCenter.shared.reloadControls(ofKind: "com.mygame.pause")
default:
    fail(usage)
}
