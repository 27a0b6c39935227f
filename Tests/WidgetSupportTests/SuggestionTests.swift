import Testing
@testable import WidgetSupport

/// "Did you mean": a typo is named, a different word is not.
@Suite struct SuggestionTests {
    @Test func typosPastACommonStartAreSuggestedAndOtherWordsAreNot() {
        let kinds = ["org.widgets.system.clock", "org.widgets.system.load", "fixture.late", "com.mygame.leaderboard"]
        #expect(Suggestion.closest(to: "org.widgets.system.clok", among: kinds) == "org.widgets.system.clock")
        #expect(Suggestion.closest(to: "com.mygame.leaderbord", among: kinds) == "com.mygame.leaderboard")
        #expect(Suggestion.closest(to: "ORG.WIDGETS.SYSTEM.LAOD", among: kinds) == "org.widgets.system.load", "case and a swap")
        #expect(Suggestion.closest(to: "fixture.nope", among: kinds) == nil, "a shared start is no evidence of a typo")
        #expect(Suggestion.closest(to: "frobnicate", among: ["list", "load", "run"]) == nil)
        #expect(Suggestion.closest(to: "lsit", among: ["list", "load", "run"]) == "list")
        #expect(Suggestion.hint(for: "bsh", among: ["bash", "zsh", "fish"]) == " (did you mean bash?)")
        #expect(Suggestion.hint(for: "x", among: [String]()) == "")
    }
}
