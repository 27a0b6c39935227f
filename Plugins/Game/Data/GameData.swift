import Foundation
import WidgetKit

/// The game's state, shared by the app (which writes it) and its widgets (which read it), in the
/// app group container, as a WidgetKit app shares data with its extension.
public struct GameState: Codable, Equatable, Sendable {
    public struct Character: Codable, Equatable, Sendable {
        public var name: String
        public var health: Int
        public var level: Int

        public init(name: String, health: Int, level: Int) {
            self.name = name
            self.health = health
            self.level = level
        }
    }

    public struct Score: Codable, Equatable, Sendable {
        public var player: String
        public var points: Int

        public init(player: String, points: Int) {
            self.player = player
            self.points = points
        }
    }

    public var status: String
    public var characters: [Character]
    public var scores: [Score]
    public var updated: Date

    public init(status: String, characters: [Character], scores: [Score], updated: Date) {
        self.status = status
        self.characters = characters
        self.scores = scores
        self.updated = updated
    }

    /// Scores from the highest down; ties by player name.
    public var leaderboard: [Score] {
        scores.sorted { ($0.points, $1.player) > ($1.points, $0.player) }
    }

    public static let sample = GameState(
        status: "Your party is resting at the inn",
        characters: [
            Character(name: "Power Panda", health: 80, level: 12),
            Character(name: "Unipony", health: 45, level: 9),
            Character(name: "Spouty", health: 100, level: 15),
        ],
        scores: [
            Score(player: "ada", points: 4200), Score(player: "grace", points: 3900),
            Score(player: "linus", points: 3100), Score(player: "ken", points: 2800),
            Score(player: "dennis", points: 2600), Score(player: "barbara", points: 1500),
        ],
        updated: Date(timeIntervalSince1970: 1_763_740_800))
}

/// Reads and writes the game state file in the shared container.
public enum GameStore {
    public static let groupIdentifier = "group.org.widgets.game"

    public enum Failure: Error, CustomStringConvertible {
        case noContainer
        case unreadable(URL, String)
        case noCharacter(String)

        public var description: String {
            switch self {
            case .noContainer: "the shared container for \(GameStore.groupIdentifier) cannot be created"
            case .unreadable(let url, let reason): "cannot read the game data at \(url.path): \(reason)"
            case .noCharacter(let name): "no character named '\(name)'"
            }
        }
    }

    public static func fileURL() throws(Failure) -> URL {
        guard let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: groupIdentifier) else {
            throw .noContainer
        }
        return container.appendingPathComponent("game.json")
    }

    /// The game as saved; with nothing saved yet (a first run, the widgets installed before the
    /// game was ever played), a new game, saved so that the app and every widget see the same one.
    public static func load() throws(Failure) -> GameState {
        let url = try fileURL()
        guard FileManager.default.fileExists(atPath: url.path) else {
            // Put in place only where there is none yet (link fails on a file another process has
            // just made, which is then the game read).
            if let data = try? encoded(GameState.sample) {
                // A name of its own: two widgets of this bundle may start the game at once.
                let temporary = url.deletingLastPathComponent().appendingPathComponent(".game.json.\(UUID().uuidString)")
                if (try? data.write(to: temporary)) != nil { _ = link(temporary.path, url.path) }
                unlink(temporary.path)
            }
            if FileManager.default.fileExists(atPath: url.path) { return try load() }
            return GameState.sample
        }
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return try decoder.decode(GameState.self, from: Data(contentsOf: url))
        } catch {
            throw .unreadable(url, "\(error)")
        }
    }

    /// Writes atomically (a temporary file renamed into place), so a widget never reads half a file.
    public static func save(_ state: GameState) throws {
        try encoded(state).write(to: try fileURL(), options: .atomic)
    }

    static func encoded(_ state: GameState) throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(state)
    }
}

/// The documentation's character details: the avatar and hero type of each character, with the
/// health the game state holds now. Characters come from the game state, so one the game drops is
/// no longer offered (and an instance that chose it is told so).
public struct CharacterDetail: Equatable, Sendable {
    public let name: String
    public let avatar: String
    public let healthLevel: Double
    public let heroType: String

    static let looks: [String: (avatar: String, heroType: String)] = [
        "Power Panda": ("🐼", "Forest Dweller"), "Unipony": ("🦄", "Free Rangers"), "Spouty": ("🐳", "Deep Sea Goer"),
    ]

    /// The characters in the game now: from the shared container, or the sample game before the app
    /// has written one.
    public static var availableCharacters: [CharacterDetail] {
        let state = (try? GameStore.load()) ?? GameState.sample
        return state.characters.map { character in
            let look = looks[character.name] ?? ("🧙", "Adventurer")
            return CharacterDetail(
                name: character.name, avatar: look.avatar, healthLevel: Double(character.health) / 100, heroType: look.heroType)
        }
    }

    public static func lookup(_ name: String?) -> CharacterDetail? {
        availableCharacters.first { $0.name == name }
    }
}

/// The game's deep links: what its widgets link to and its app opens (`mygame://character/Unipony`).
public enum GameLinks {
    public static let scheme = "mygame"
    public static let status = URL(string: "mygame://status")!

    public static func character(_ name: String) -> URL { url("character", name) }
    public static func player(_ name: String) -> URL { url("player", name) }

    static func url(_ place: String, _ name: String) -> URL {
        URL(string: "\(scheme)://\(place)/\(name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? name)")!
    }

    /// What a link points at, as the app shows it: "character Unipony", "the game status".
    public static func describe(_ url: URL) -> String? {
        guard url.scheme == scheme, let place = url.host else { return nil }
        let name = url.path.removingPercentEncoding.map { String($0.drop { $0 == "/" }) } ?? ""
        switch (place, name.isEmpty) {
        case ("status", true): return "the game status"
        case ("character", false), ("player", false): return "\(place) \(name)"
        default: return nil
        }
    }
}

extension GameStore {
    /// Raises a character's health by `amount`, at most to 100; returns the new health.
    @discardableResult
    public static func heal(_ name: String, by amount: Int) throws -> Int {
        var state = try load()
        guard let index = state.characters.firstIndex(where: { $0.name == name }) else {
            throw Failure.noCharacter(name)
        }
        state.characters[index].health = min(100, state.characters[index].health + amount)
        state.updated = Date()
        try save(state)
        return state.characters[index].health
    }
}

/// A match the game plays, shown as a Live Activity while it lasts: who it is against, and its
/// score and period, which change (the app's `game-app match` starts, updates and ends it).
public struct MatchAttributes: ActivityAttributes, Sendable {
    public struct ContentState: Codable, Hashable, Sendable {
        public var ours: Int
        public var theirs: Int
        public var period: Int

        public init(ours: Int, theirs: Int, period: Int) {
            self.ours = ours
            self.theirs = theirs
            self.period = period
        }
    }

    public var opponent: String

    public init(opponent: String) {
        self.opponent = opponent
    }
}
