import Foundation
import Testing
import WidgetHost
@testable import WidgetRendering
import WidgetTestSupport
import WidgetWire
@testable import WidgetWeb

/// The home screen in a real browser (Debian's Chromium, driven over the DevTools protocol): what a
/// person sees and does. Skipped, saying so, where no Chromium is installed; CI installs it.
@Suite(.serialized) struct BrowserTests {
    /// The page's Controls (a toggle pressed by a click, its state from the host) and Live
    /// Activities (the match drawn above the widgets, updated in place, gone when dismissed).
    @Test(.enabled(if: Chromium.executable != nil, "no Chromium installed (apt-get install chromium): the browser test is skipped"))
    func aPersonPressesControlsAndSeesALiveActivity() async throws {
        let web = try await WebHome()
        defer { web.stop() }
        #expect(await web.waitForTimelines())
        let browser = try Chromium(executable: Chromium.executable!, profile: Fixtures.temporaryDirectory("chromium"))
        defer { browser.quit() }
        try await browser.navigate(web.home.url)
        let pause = "document.querySelector('button.control[data-kind=\"com.mygame.pause\"]')"
        #expect(try await browser.waitFor("\(pause) !== null && \(pause).getAttribute('aria-pressed') === 'false'"))
        try await browser.click("button.control[data-kind=\"com.mygame.pause\"]")
        #expect(try await browser.waitFor("\(pause).getAttribute('aria-pressed') === 'true'"), "the host's new state")
        #expect(try await browser.evaluate("\(pause).textContent.endsWith('Paused')") == .bool(true))

        let attributes = JSONValue.object(JSONObject([("opponent", .string("Rovers"))]))
        @Sendable func state(_ ours: Int) -> JSONValue { .object(JSONObject([("ours", .number(Double(ours))), ("theirs", .number(0)), ("period", .number(1))])) }
        guard case .activity(let match) = await blocking({ web.daemon.answer(.activityStart(type: "MatchAttributes", attributes: attributes, content: .init(state: state(1)))) }) else {
            Issue.record("not started")
            return
        }
        let activity = "document.querySelector('.activity[data-id=\"\(match.id)\"]')"
        #expect(try await browser.waitFor("\(activity) !== null && \(activity).querySelector('.light svg').textContent.includes('Rovers')"))
        #expect(try await browser.evaluate("document.getElementById('activities').hidden") == .bool(false))
        _ = await blocking { web.daemon.answer(.activityUpdate(id: match.id, content: .init(state: state(4)))) }
        #expect(try await browser.waitFor("\(activity).querySelector('.light svg').textContent.includes('4 – 0')"), "updated in place")
        let screenshot = Fixtures.temporaryDirectory("screenshot").appendingPathComponent("controls-and-activity.png")
        try await browser.screenshot().write(to: screenshot)
        print("controls and a Live Activity: \(screenshot.path)")
        _ = await blocking { web.daemon.answer(.activityEnd(id: match.id, content: nil, dismissal: .immediate)) }
        #expect(try await browser.waitFor("\(activity) === null && document.getElementById('activities').hidden"))
        let errors = browser.events.filter { $0["method"] == .string("Runtime.exceptionThrown") }
        #expect(errors.isEmpty, "\(errors.map(\.jsonText))")
    }

    @Test(.enabled(if: Chromium.executable != nil, "no Chromium installed (apt-get install chromium): the browser test is skipped"))
    func aPersonSeesTheWidgetsTapsThemAndEditsOne() async throws {
        let web = try await WebHome(withClock: true)
        defer { web.stop() }
        #expect(await web.waitForTimelines())
        let browser = try Chromium(executable: Chromium.executable!, profile: Fixtures.temporaryDirectory("chromium"))
        defer { browser.quit() }
        let ids = try web.ids()
        let (leaderboard, detail, clock) = (ids[0], ids[1], ids[3])
        func card(_ id: String) -> String { "document.querySelector('.card[data-id=\"\(id)\"]')" }

        // The token in the address's fragment is kept by the tab and leaves the address; the page
        // draws every instance from its stream, read with the token in a header. No cookie is set.
        try await browser.navigate(web.home.url)
        #expect(try await browser.waitFor("location.hash === ''"), "the token leaves the address")
        #expect(try await browser.evaluate("location.pathname + location.search + location.hash") == .string("/"))
        #expect(try await browser.evaluate("document.cookie") == .string(""))
        #expect(try await browser.waitFor("document.querySelectorAll('.card .light svg').length === 4"))
        #expect(try await browser.evaluate("\(card(leaderboard)).textContent.includes('ada')") == .bool(true))
        #expect(try await browser.evaluate("document.getElementById('connection').textContent") == .string("live"))
        // Medium spans two columns of the grid.
        #expect(try await browser.evaluate("getComputedStyle(\(card(leaderboard))).gridColumnStart") == .string("span 2"))

        // An entry's date comes on the host's clock: the page shows the next one, unasked.
        let shown = try await browser.evaluate("\(card(clock)).querySelector('.light text').textContent")
        let next = try #require(web.daemon.engine.status(id: clock)?.nextEntryDate)
        web.clock.advance(to: next)
        #expect(try await browser.waitFor("\(card(clock)).querySelector('.light text').textContent !== \(shown.jsonText)"), "\(shown)")

        // A link opens in the bundle's app, through the host.
        try await browser.click(".card[data-id=\"\(leaderboard)\"] .light a[data-link=\"2\"] text")
        #expect(try await browser.waitFor("!document.getElementById('toast').hidden"))
        #expect(try await browser.evaluate("document.getElementById('toast').textContent") == .string("Opened mygame://player/grace in libGameWidgets.so"))
        let defaults = web.data.appendingPathComponent("widgets/groups/group.org.widgets.game/Library/Preferences/group.org.widgets.game.json")
        #expect((try? String(contentsOf: defaults, encoding: .utf8))?.contains("mygame://player/grace") == true)

        // A button performs its intent; the widget reloads once and shows it.
        #expect(try await browser.evaluate("\(card(detail)).textContent.includes('80%')") == .bool(true))
        try await browser.click(".card[data-id=\"\(detail)\"] .light [data-button=\"1\"]")
        #expect(try await browser.waitFor("\(card(detail)).textContent.includes('90%')"))

        // Edit Widget: the provider's choices, saved through the host's validation.
        _ = try await browser.evaluate("\(card(detail)).querySelector('button.edit').click()")
        #expect(try await browser.waitFor("document.getElementById('editor').open"))
        #expect(try await browser.evaluate("[...document.querySelectorAll('#editor-fields select option')].map(o => o.value).join(',')") == .string(",Power Panda,Unipony,Spouty"), "None, as the parameter is optional, then the provider's choices")
        _ = try await browser.evaluate("document.querySelector('#editor-fields select').value = 'Unipony'")
        try await browser.click("#editor-save")
        #expect(try await browser.waitFor("!document.getElementById('editor').open"))
        #expect(try await browser.waitFor("\(card(detail)).textContent.includes('Unipony')"))
        #expect(try web.store.load().instance(id: detail)?.configuration["character"] == .string("Unipony"))

        // The desktop's right click on a widget opens the page with that widget's Edit Widget open.
        try await browser.navigate("about:blank")
        try await browser.navigate(web.home.url + "&edit=" + detail)
        #expect(try await browser.waitFor("document.getElementById('editor').open"), "Edit Widget open at once")
        #expect(try await browser.evaluate("document.querySelector('#editor-fields select').value") == .string("Unipony"), "the widget clicked")
        #expect(try await browser.evaluate("location.hash") == .string(""), "the token and the request leave the address")
        _ = try await browser.evaluate("document.getElementById('editor').close()")

        // Add Widget, as iOS's widget gallery: a dialog that fits the window (a list that scrolls,
        // Close at its top), searchable; a widget chosen shows its sizes by name, one at a time, and
        // is added in the size shown.
        try await browser.click("#add")
        #expect(try await browser.waitFor("document.querySelectorAll('#gallery-widgets .gallery-item').length > 0", timeout: 60))
        #expect(try await browser.evaluate("document.getElementById('gallery').getBoundingClientRect().bottom <= innerHeight") == .bool(true))
        #expect(try await browser.evaluate("document.getElementById('gallery-close').getBoundingClientRect().top - document.getElementById('gallery').getBoundingClientRect().top < 80") == .bool(true), "Close at the top")
        #expect(try await browser.evaluate("[...document.querySelectorAll('#gallery-widgets .gallery-item .name')].map(n => n.textContent).includes('Clock')") == .bool(true))
        _ = try await browser.evaluate("(() => { const s = document.getElementById('gallery-search'); s.value = 'leader'; s.dispatchEvent(new Event('input')); return true; })()")
        #expect(try await browser.evaluate("[...document.querySelectorAll('#gallery-widgets .gallery-item')].map(i => i.dataset.kind).join()") == .string("com.mygame.leaderboard"))
        try await browser.click("#gallery-widgets .gallery-item[data-kind=\"com.mygame.leaderboard\"]")
        #expect(try await browser.waitFor("!document.getElementById('gallery-detail').hidden && document.querySelector('#pager-page svg') !== null"))
        let sizes = try await browser.evaluate("document.querySelector('#gallery-widgets .gallery-item .sizes')?.textContent ?? ''")
        for _ in 0..<8 where try await browser.evaluate("document.querySelector('#pager-page figcaption').textContent") != .string("Large") {
            try await browser.click("#pager-next")
        }
        #expect(try await browser.evaluate("document.querySelector('#pager-page figcaption').textContent") == .string("Large"), "sizes: \(sizes)")
        #expect(try await browser.evaluate("document.querySelectorAll('#pager-dots span').length > 1") == .bool(true))
        try await browser.click("#gallery-add")
        #expect(try await browser.waitFor("document.querySelectorAll('.card').length === 5"))
        #expect(try await browser.waitFor("!document.getElementById('gallery').open"))
        let added = try #require(web.ids().last)
        #expect(try web.store.load().instance(id: added)?.family == .systemLarge)
        #expect(try await browser.waitFor("\(card(added)).querySelector('.light svg') !== null"))

        // Every action is reached without a mouse: Tab reaches a card and then its Edit Widget and
        // Remove; Edit (or a long press) shows every card's actions, Move among them, and taps on
        // widgets do nothing meanwhile; Esc ends it.
        _ = try await browser.evaluate("document.activeElement.blur(); \(card(detail)).focus(); true")
        var reached = false
        for _ in 0..<12 where !reached {
            try await browser.press("Tab", code: 9)
            reached = try await browser.evaluate("document.activeElement.matches('.card[data-id=\"\(detail)\"] button.remove')") == .bool(true)
        }
        #expect(reached, "Tab reaches the card's Remove")
        #expect(try await browser.evaluate("getComputedStyle(\(card(detail)).querySelector('.actions')).display") == .string("flex"))
        try await browser.click("#edit-mode")
        #expect(try await browser.evaluate("document.body.classList.contains('editing') && [...document.querySelectorAll('.card .actions')].every(a => getComputedStyle(a).display === 'flex')") == .bool(true))
        let orderBefore = try web.ids()
        try await browser.click(".card[data-id=\"\(orderBefore[0])\"] button.move[data-move=\"1\"]")
        #expect(await blocking { (0..<300).contains { _ in (try? web.ids())?.first == orderBefore[1] || { usleep(10_000); return false }() } }, "moved a place later")
        try await browser.press("Escape", code: 27)
        #expect(try await browser.evaluate("document.body.classList.contains('editing')") == .bool(false))
        _ = try await browser.command("Emulation.setTouchEmulationEnabled", ["enabled": .bool(true), "maxTouchPoints": .number(1)])
        #expect(try await browser.longPress(".card[data-id=\"\(leaderboard)\"] .widget", until: "document.body.classList.contains('editing')"), "a long press enters edit mode")
        _ = try await browser.command("Emulation.setTouchEmulationEnabled", ["enabled": .bool(false)])
        try await browser.click("#edit-mode")
        #expect(try await browser.evaluate("document.getElementById('edit-mode').textContent") == .string("Edit"))

        // The page has an icon.
        #expect(try await browser.evaluate("fetch('/favicon.svg').then(r => r.status + ' ' + r.headers.get('content-type'))") == .string("200 image/svg+xml"))

        // As iOS lays out a home screen: rows 196 points apart; two columns of small widgets on a
        // 375-point phone, not one.
        #expect(
            try await browser.evaluate(
                "(() => { const tops = [...new Set([...document.querySelectorAll('#home .card')].map((c) => Math.round(c.getBoundingClientRect().top)))].sort((a, b) => a - b); return tops[1] - tops[0]; })()"
            ) == .number(196))
        _ = try await browser.command("Emulation.setDeviceMetricsOverride", ["width": .number(375), "height": .number(812), "deviceScaleFactor": .number(1), "mobile": .bool(true)])
        #expect(try await browser.evaluate("getComputedStyle(document.getElementById('home')).gridTemplateColumns") == .string("158px 158px"))
        _ = try await browser.command("Emulation.clearDeviceMetricsOverride", [:])
        // A Lock Screen family is shown in a Lock Screen area of its own, not in the home grid.
        #expect(try await browser.evaluate("document.getElementById('lock').hidden") == .bool(true), "no Lock Screen widget yet")
        #expect(try await browser.evaluate("getComputedStyle(document.getElementById('lock')).display") == .string("none"), "and not drawn")
        _ = try await browser.evaluate("post('/instances', { kind: 'com.mygame.leaderboard', family: 'accessoryRectangular' }).then(() => true)")
        #expect(try await browser.waitFor("document.querySelectorAll('#lock .card.family-accessoryRectangular .light svg').length === 1"))
        #expect(try await browser.evaluate("document.getElementById('lock').hidden") == .bool(false))
        #expect(try await browser.evaluate("document.querySelectorAll('#home .card.family-accessoryRectangular').length") == .number(0))

        // Live texts tick in the page as the host would format them.
        for seconds in [0, 1, 59, 60, 61, 3599, 3600, 3723, 86_399, 86_400, 90_061, 200_000] {
            #expect(try await browser.evaluate("relative(\(seconds))") == .string(DateText.relative(Double(seconds))))
            #expect(try await browser.evaluate("offsetText(\(seconds))") == .string(DateText.offset(Double(seconds))))
            #expect(try await browser.evaluate("offsetText(-\(seconds))") == .string(DateText.offset(Double(-seconds))))
            #expect(try await browser.evaluate("timer(\(seconds), true)") == .string(DateText.timer(Double(seconds), showsHours: true)))
            #expect(try await browser.evaluate("timer(\(seconds), false)") == .string(DateText.timer(Double(seconds), showsHours: false)))
        }

        // Dark, as the browser prefers it: the dark drawing shows, the light one does not.
        _ = try await browser.command("Emulation.setEmulatedMedia", ["features": .array([.object(JSONObject([("name", .string("prefers-color-scheme")), ("value", .string("dark"))]))])])
        #expect(try await browser.evaluate("getComputedStyle(\(card(leaderboard)).querySelector('.dark')).display") == .string("block"))
        #expect(try await browser.evaluate("getComputedStyle(\(card(leaderboard)).querySelector('.light')).display") == .string("none"))
        // A dialog stands out from the dark page: its own surface and a border.
        try await browser.click("#add")
        #expect(try await browser.evaluate("getComputedStyle(document.getElementById('gallery')).backgroundColor") == .string("rgb(28, 28, 30)"))
        #expect(try await browser.evaluate("getComputedStyle(document.getElementById('gallery')).borderTopWidth") == .string("1px"))
        try await browser.click("#gallery-close")
        let dark = Fixtures.temporaryDirectory("screenshot").appendingPathComponent("home-screen-dark.png")
        try await browser.screenshot().write(to: dark)
        print("home screen screenshot (dark): \(dark.path)")

        let screenshot = Fixtures.temporaryDirectory("screenshot").appendingPathComponent("home-screen.png")
        try await browser.screenshot().write(to: screenshot)
        #expect(((try? FileManager.default.attributesOfItem(atPath: screenshot.path)[.size] as? Int) ?? 0) > 10_000)
        print("home screen screenshot: \(screenshot.path)")
        let errors = browser.events.filter { $0["method"] == .string("Runtime.exceptionThrown") }
        #expect(errors.isEmpty, "\(errors.map(\.jsonText))")

        // The host restarts: the page finds it again at the same address, by itself, and says so.
        let port = web.port
        try web.restartHome()
        #expect(web.port == port)
        #expect(try await browser.waitFor("document.getElementById('toast').textContent === 'Reconnected'"))
        #expect(try await browser.waitFor("document.getElementById('connection').textContent === 'live'"))
        // Its token changed meanwhile (the state's token deleted): the page says so, and follows
        // once a page is opened with the new one (another tab's message, here sent from this one).
        let newToken = String(repeating: "6b", count: 32)
        try web.restartHome(token: newToken)
        #expect(try await browser.waitFor("document.getElementById('connection').textContent.includes('token changed')"))
        _ = try await browser.evaluate("new BroadcastChannel('widgets-token').postMessage('\(newToken)'); true")
        #expect(try await browser.waitFor("document.getElementById('toast').textContent === 'Signed in again with the host\\'s new token'"))
        #expect(try await browser.waitFor("document.getElementById('connection').textContent === 'live'"))
        #expect(try await browser.evaluate("sessionStorage.getItem('widgets-token')") == .string(newToken))
        // A page whose token works takes none from another tab (a stale tab cannot hand it an old one).
        // (Messages reach a channel's listeners in the order they were made: when a probe made now
        // hears it, the page's own listener has had it.)
        let stale = String(repeating: "00", count: 32)
        #expect(
            try await browser.evaluate(
                "new Promise((done) => { const probe = new BroadcastChannel('widgets-token'); probe.onmessage = () => done(sessionStorage.getItem('widgets-token')); new BroadcastChannel('widgets-token').postMessage('\(stale)'); })"
            ) == .string(newToken))

        // Reloaded, the tab still has its token; the stream is read again.
        // (Asked while the page reloads, an element may not be there yet: `?.` says "not yet".)
        _ = try await browser.evaluate("location.reload()")
        #expect(try await browser.waitFor("document.querySelectorAll('.card .light svg').length === 6"))
        #expect(try await browser.waitFor("document.getElementById('connection')?.textContent === 'live'"))
        // Without it (a tab of its own, its session storage empty), the page says how to open it.
        _ = try await browser.evaluate("sessionStorage.clear(); location.reload()")
        #expect(try await browser.waitFor("document.getElementById('connection')?.textContent.includes('widgets home') === true"))
        #expect(try await browser.evaluate("document.querySelectorAll('.card').length") == .number(0))
    }
}
