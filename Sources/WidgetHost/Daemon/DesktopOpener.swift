import Dispatch
import FoundationEssentials
import WidgetSupport

/// Opens a URL that no bundle claims the way the desktop opens one, as iOS hands a widget's link to
/// the app registered for it: `xdg-open URL`, which starts the application registered for its
/// scheme (`x-scheme-handler/SCHEME`; a browser for http). `$WIDGETS_URL_OPENER` names another
/// program (the tests record what it is given). A `file:`, `javascript:` or `data:` URL from a
/// widget is refused: a tap must not run a local file or script.
public enum DesktopOpener {
    static let refusedSchemes: Set<String> = ["file", "javascript", "data", "vbscript"]

    /// What opens URLs: `$WIDGETS_URL_OPENER`, else `xdg-open` on PATH.
    public static func program(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let given = environment["WIDGETS_URL_OPENER"], !given.isEmpty { return given }
        return Subprocess.find("xdg-open", environment: environment)
    }

    /// The browsers that show a page as a window of its own (`--app=URL`), by the names they have on PATH.
    static let appBrowsers = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "microsoft-edge", "brave-browser", "vivaldi"]

    /// What shows a page as a window of its own: `$WIDGETS_APP_BROWSER`, else the first of
    /// `appBrowsers` on PATH.
    public static func appBrowser(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let given = environment["WIDGETS_APP_BROWSER"], !given.isEmpty {
            // A name is looked up on PATH, as a shell would.
            return given.contains("/") ? given : Subprocess.find(given, environment: environment) ?? given
        }
        return appBrowsers.lazy.compactMap { Subprocess.find($0, environment: environment) }.first
    }

    /// Shows `url` (the home screen's page) as a window of its own, as an app of the desktop, where
    /// no layer shell can show the widgets themselves (GNOME); returns the browser's name. Waits a
    /// little for a browser that fails at once, and no longer (it stays, showing the window).
    public static func openAsApp(_ url: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(TapError) -> String {
        guard let browser = appBrowser(environment: environment) else {
            throw TapError(
                "no browser that shows a page as a window of its own (\(appBrowsers.joined(separator: ", ")); Debian's chromium is one; $WIDGETS_APP_BROWSER names another)")
        }
        let name = browser.pathFileName
        let process: Subprocess
        do {
            process = try Subprocess(browser, ["--app=" + url], standardOutput: .discard, standardError: .capture)
        } catch {
            throw TapError("cannot run \(browser)\(environment["WIDGETS_APP_BROWSER"].map { _ in " ($WIDGETS_APP_BROWSER)" } ?? ""): \(error.reason)")
        }
        guard let status = process.waitForExit(atMost: 2) else { return name }
        guard status == 0 else {
            let said = String(decoding: process.errorsSoFar(limit: 500), as: UTF8.self).onOneLine
            throw TapError("\(name) could not show the page (status \(status))\(said.isEmpty ? "" : ": " + said)")
        }
        return name
    }

    /// Hands `url` to the desktop; returns what opened it ("xdg-open"). Waits a little for the
    /// opener's verdict (it starts the application and exits), and no longer.
    public static func open(_ url: String) throws(TapError) -> String {
        guard let scheme = URL(string: url)?.scheme?.lowercased() else {
            throw TapError("\"\(url.onOneLine.cut(to: 200))\" is not a URL (it has no scheme)")
        }
        guard !refusedSchemes.contains(scheme) else {
            throw TapError("\(scheme): URLs are not opened from a widget (a tap must not run a local file or script): \(url.onOneLine.cut(to: 200))")
        }
        guard let program = program() else {
            throw TapError("no bundle opens \(scheme): URLs, and there is no xdg-open to hand it to the desktop (Debian's xdg-utils has it)")
        }
        let process: Subprocess
        do {
            process = try Subprocess(program, [url], standardOutput: .discard, standardError: .capture)
        } catch {
            throw TapError("cannot run \(program) to open \(url.onOneLine.cut(to: 200)): \(error.reason)")
        }
        let name = program.pathFileName
        // An opener that stays (the application itself) has opened it.
        guard let status = process.waitForExit(atMost: 5) else { return name }
        guard status == 0 else {
            let said = String(decoding: process.errorsSoFar(limit: 500), as: UTF8.self).onOneLine
            throw TapError("\(name) could not open \(url.onOneLine.cut(to: 200)) (status \(status))\(said.isEmpty ? "" : ": " + said)")
        }
        return name
    }
}
