import Foundation
import GameData
import WidgetKit

struct GameWidgets: WidgetBundle {
    var body: some Widget {
        GameStatusWidget()
        LeaderboardWidget()
        CharacterDetailWidget()
        SiriKitStyle.CharacterDetailWidget()
        MatchLiveActivity()
        PauseGameControl()
        HealUniponyControl()
    }
}

// On iOS this bundle would be marked @main; on Linux this one line hands it to the host, with the
// app's URL scheme, what opening one of its links does (open the game app there), and the app
// group it shares with the game app (whose WidgetCenter reloads reach this bundle's widgets only).
@c(widget_bundle_entry) public func widgetBundleEntry() -> UnsafeRawPointer {
    exportWidgetBundle(
        GameWidgets.self, name: "Game", version: "1.0.0", vendor: "the widgets project", urlSchemes: [GameLinks.scheme],
        appGroups: [GameStore.groupIdentifier], onOpenURL: GameAppLauncher.open)
}

/// Opens the game app at a deep link: `game-app open URL`, found on PATH, as the system would
/// launch an app for its URL scheme.
enum GameAppLauncher {
    @Sendable static func open(_ url: URL) async throws {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        guard let app = directories.map({ "\($0)/game-app" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw LaunchError(description: "the game app (game-app) is not on PATH")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: app)
        process.arguments = ["open", url.absoluteString]
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw LaunchError(description: "game-app open \(url.absoluteString) exited with status \(process.terminationStatus)")
        }
    }

    struct LaunchError: Error, CustomStringConvertible {
        let description: String
    }
}
