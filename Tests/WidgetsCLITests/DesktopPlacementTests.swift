import Foundation
import Testing
@testable import WidgetDesktop
import WidgetRendering
import WidgetTestSupport
import WidgetWire
@testable import WidgetsCommandLine

/// What `widgets desktop` decides without a compositor: where widgets go, its options, what it says
/// when it cannot run.
struct DesktopPlacementTests {
    /// The home screen's grid: small widgets a cell each, a medium one two cells across, a large one
    /// two by two, each in the first place it fits, in the saved order.
    @Test func widgetsTakeTheirFamiliesCellsInOrder() {
        let arrangement = DesktopArrangement(
            [("a", .systemSmall), ("b", .systemMedium), ("c", .systemSmall), ("d", .systemLarge), ("e", .accessoryCircular)], columns: 2)
        let frames = arrangement.placed.map { "\($0.id) \(Int($0.x)),\(Int($0.y)) \(Int($0.width))x\(Int($0.height))" }
        #expect(frames == ["a 0,0 158x158", "b 0,196 338x158", "c 180,0 158x158", "d 0,392 338x354", "e 43,827 72x72"])
        #expect(arrangement.width == 338)
        #expect(arrangement.height == 899)
        #expect(arrangement.widget(at: 200, 10)?.id == "c")
        #expect(arrangement.widget(at: 165, 10) == nil, "the gap between cells is no widget")
        // Three columns: the medium widget fits beside the first small one.
        let wide = DesktopArrangement([("a", .systemSmall), ("b", .systemMedium)], columns: 3)
        #expect(wide.placed.map { Int($0.x) } == [0, 180])
        #expect(DesktopArrangement([], columns: 2).width == 0)
    }

    @Test func marginsAreWrittenAsCSSWritesThem() {
        #expect(DesktopMargins("24") == DesktopMargins(all: 24))
        #expect(DesktopMargins("8,16") == DesktopMargins(top: 8, right: 16, bottom: 8, left: 16))
        #expect(DesktopMargins("1, 2, 3, 4") == DesktopMargins(top: 1, right: 2, bottom: 3, left: 4))
        for bad in ["", "a", "1,2,3", "-1", "1,,2,3", "99999"] { #expect(DesktopMargins(bad) == nil, "\(bad)") }
    }

    /// The settings file: the options' names and values, comments, the command line winning.
    @Test func theSettingsFileGivesWhatNoOptionGives() async throws {
        let config = Fixtures.temporaryDirectory("config")
        let file = config.appendingPathComponent("widgets/desktop.conf")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "# where the widgets go\nanchor = bottom-right\n\nmargin = 8,16   # top and bottom, sides\ncolumns=4\n".write(to: file, atomically: true, encoding: .utf8)
        let settings = try DesktopSettings(path: file.path)
        #expect(try settings.value(Options.anchor) == .bottomRight)
        #expect(try settings.value(Options.margin) == DesktopMargins(top: 8, right: 16, bottom: 8, left: 16))
        #expect(try settings.value(Options.columns) == 4)
        #expect(try settings.value(Options.output) == nil)
        #expect(try DesktopSettings(path: config.appendingPathComponent("none.conf").path).value(Options.anchor) == nil, "no file, no settings")
        #expect(DesktopSettings.path(["XDG_CONFIG_HOME": config.path]) == file.path)
        #expect(DesktopSettings.path(["HOME": "/home/ada"]) == "/home/ada/.config/widgets/desktop.conf")

        // Each bad line is named by the file and its line, before anything is shown.
        for (text, said) in [
            ("anchor = bottom-right\ncolums = 3\n", "line 2: no setting 'colums' (did you mean columns?) (settings: output, anchor, margin, columns, appearance, activities, controls)"),
            ("columns = 40\n", "line 1: --columns takes a whole number from 1 to 12, not '40'"),
            ("anchor\n", "line 1: expected 'name = value', not 'anchor'"),
        ] {
            try text.write(to: file, atomically: true, encoding: .utf8)
            let result = await widgets(["desktop"], extraEnvironment: ["XDG_CONFIG_HOME": config.path])
            #expect(result.status == 2)
            #expect(result.standardError.contains("\(file.path) \(said)"), "\(result.standardError)")
        }
        // The command line wins over the file: a bad value in the file is never read then.
        try "columns = 40\n".write(to: file, atomically: true, encoding: .utf8)
        let missing = Fixtures.temporaryDirectory("wayland").appendingPathComponent("wayland-9").path
        let overridden = await widgets(["desktop", "--columns", "3"], extraEnvironment: ["XDG_CONFIG_HOME": config.path, "WAYLAND_DISPLAY": missing])
        #expect(overridden.standardError.hasPrefix("widgets: error: cannot connect to the Wayland compositor"), "\(overridden.standardError)")
    }

    @Test func badOptionsAndNoCompositorAreSaidPlainly() async {
        let columns = await widgets(["desktop", "--columns", "0"])
        #expect(columns.status == 2)
        #expect(columns.standardError.contains("--columns takes a whole number from 1 to 12, not '0'"), "\(columns.standardError)")
        let margin = await widgets(["desktop", "--margin", "1,2,3"])
        #expect(margin.standardError.contains("--margin takes points from 0 to 10000: N, V,H or T,R,B,L, not '1,2,3'"), "\(margin.standardError)")
        let anchor = await widgets(["desktop", "--anchor", "middle"])
        #expect(anchor.standardError.contains("--anchor takes top-left, top, top-right"), "\(anchor.standardError)")
        let missing = Fixtures.temporaryDirectory("wayland").appendingPathComponent("wayland-9").path
        let nowhere = await widgets(["desktop"], extraEnvironment: ["WAYLAND_DISPLAY": missing])
        #expect(nowhere.status == 1)
        #expect(nowhere.standardError.hasPrefix("widgets: error: cannot connect to the Wayland compositor at \(missing) ("), "\(nowhere.standardError)")
        let noDisplay = await widgets(["desktop"], extraEnvironment: ["WAYLAND_DISPLAY": "", "DISPLAY": ""])
        #expect(noDisplay.standardError.hasPrefix("widgets: error: no display to show the widgets on: neither WAYLAND_DISPLAY"), "\(noDisplay.standardError)")
        let noX = await widgets(["desktop"], extraEnvironment: ["WAYLAND_DISPLAY": "", "DISPLAY": ":97"])
        #expect(noX.standardError.hasPrefix("widgets: error: cannot connect to the X server at :97"), "\(noX.standardError)")
    }

    /// The portal's announcement of a new color-scheme, as `busctl --json=short monitor` prints it.
    @Test func aNewColorSchemeIsReadFromTheMonitor() {
        func line(_ namespace: String, _ key: String, _ value: Int) -> String {
            #"{"type":"signal","endian":"l","flags":1,"version":1,"cookie":7,"timestamp-realtime":1,"sender":":1.2","path":"/org/freedesktop/portal/desktop","#
                + #""interface":"org.freedesktop.portal.Settings","member":"SettingChanged","payload":{"type":"ssv","data":["\#(namespace)","\#(key)",{"type":"u","data":\#(value)}]}}"#
        }
        #expect(DesktopAppearance.scheme(fromMonitor: line("org.freedesktop.appearance", "color-scheme", 1)) == .some(.dark))
        #expect(DesktopAppearance.scheme(fromMonitor: line("org.freedesktop.appearance", "color-scheme", 2)) == .some(.light))
        #expect(DesktopAppearance.scheme(fromMonitor: line("org.freedesktop.appearance", "color-scheme", 0)) == .some(nil), "no preference")
        #expect(DesktopAppearance.scheme(fromMonitor: line("org.freedesktop.appearance", "accent-color", 1)) == nil)
        #expect(DesktopAppearance.scheme(fromMonitor: "Monitoring bus message stream.") == nil)
    }

    /// Without a session bus, or without busctl, the desktop is not followed, and says why.
    @Test func followingTheDesktopWithoutABusSaysWhyNot() {
        func reason(_ environment: [String: String]) -> String? {
            if case .failure(let failure) = DesktopAppearance.follow(environment: environment, { _ in }, ended: { _ in }) { failure.description } else { nil }
        }
        #expect(reason(["PATH": "/usr/bin:/bin"]) == "no session bus (neither DBUS_SESSION_BUS_ADDRESS nor XDG_RUNTIME_DIR is set)")
        #expect(reason(["XDG_RUNTIME_DIR": "/run/user/0", "PATH": "/nonexistent"]) == "busctl is not installed (Debian's systemd package has it)")
    }

    /// Only the desktop runs without tasks (on the main thread, no libdispatch worker to wake it);
    /// the command line is read once, before any task.
    @Test func onlyTheDesktopRunsWithoutTasks() {
        func runsAsATask(_ arguments: [String]) -> Bool {
            if case .task = CLI.start(arguments) { true } else { false }
        }
        #expect(runsAsATask(["--plugins", "/nowhere", "configurations"]))
        #expect(runsAsATask(["--plugins", "desktop", "configurations"]), "desktop there is --plugins' value")
        #expect(Command.desktop.withoutTasks != nil && Command.named("run")?.withoutTasks == nil)
        // A usage error is said and its status returned, as a task's would be.
        guard case .status(let status) = CLI.start(["-q", "--plugins", "/nowhere", "desktop", "--columns", "0"]) else {
            Issue.record("the desktop's usage error was left to a task")
            return
        }
        #expect(status == 2)
    }

    /// The scale of X11 programs: GTK's GDK_SCALE first, else Xft.dpi over 96 to the nearest whole
    /// number, else 1; 1 to 4.
    @Test func anX11ScaleIsTakenAsGTKAndTheResourcesSayIt() {
        #expect(X11Scale(dpi: 0, gdkScale: "zero").factor == 1 && !X11Scale(dpi: 0, gdkScale: "zero").isGiven)
        #expect(X11Scale(dpi: 0, gdkScale: nil).factor == 1)
        #expect([96.0, 120, 144, 192, 288, 1200].map { X11Scale(dpi: $0, gdkScale: nil).factor } == [1, 1, 2, 2, 3, 4])
        #expect(X11Scale(dpi: 96, gdkScale: "2").factor == 2 && X11Scale(dpi: 96, gdkScale: "2").isGiven, "the resources do not change it")
        #expect(X11Scale(dpi: 192, gdkScale: "1").reason == "GDK_SCALE=1")
        #expect(X11Scale(dpi: 192, gdkScale: "0").factor == 2, "a GDK_SCALE below 1 is not one")
        #expect(X11Scale(dpi: 143.5, gdkScale: nil).reason == "Xft.dpi 143.5")
    }
}
