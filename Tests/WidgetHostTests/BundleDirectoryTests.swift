import Foundation
import Testing
import WidgetTestSupport
import WidgetWire

@testable import WidgetHost

/// A bundle with resources (`NAME.widgetbundle`): loaded through its `NAME.so`, handed its
/// directory, and checked file by file as a lone `.so` is, each refusal naming the file inside.
@Suite struct BundleDirectoryTests {
    /// A search-path directory holding `name.widgetbundle` with the fixture `good` as its code and a resource.
    func bundle(_ name: String = "Weather") throws -> (directory: URL, bundle: URL) {
        let directory = Fixtures.temporaryDirectory("plugins")
        let bundle = directory.appendingPathComponent("\(name).widgetbundle")
        try FileManager.default.createDirectory(at: bundle.appendingPathComponent("en.lproj"), withIntermediateDirectories: true)
        chmod(bundle.path, 0o755)
        chmod(bundle.appendingPathComponent("en.lproj").path, 0o755)
        try FileManager.default.copyItem(atPath: Fixtures.path("good"), toPath: bundle.appendingPathComponent("\(name).so").path)
        try Data("\"a\" = \"b\";".utf8).write(to: bundle.appendingPathComponent("en.lproj/Localizable.strings"))
        chmod(bundle.appendingPathComponent("en.lproj/Localizable.strings").path, 0o644)
        return (directory, bundle)
    }

    func refusal(_ directory: URL, sourceLocation: SourceLocation = #_sourceLocation) -> LoadProblem? {
        let registry = WidgetRegistry.load(searchPath: [directory.path])
        #expect(registry.widgets.isEmpty, "refused, not loaded", sourceLocation: sourceLocation)
        #expect(registry.problems.count == 1, "\(registry.problems)", sourceLocation: sourceLocation)
        return registry.problems.first
    }

    @Test func aBundleDirectoryLoadsItsSharedObjectUnderTheDirectorysName() throws {
        let (directory, bundle) = try bundle()
        let registry = WidgetRegistry.load(searchPath: [directory.path])
        #expect(registry.problems.isEmpty, "\(registry.problems)")
        let widget = try #require(registry.widget(kind: "fixture.good"))
        #expect(widget.bundle.path == bundle.path)
    }

    @Test func aFileInsideWritableByOthersIsRefusedNamingIt() throws {
        let (directory, bundle) = try bundle()
        chmod(bundle.appendingPathComponent("en.lproj/Localizable.strings").path, 0o666)
        let problem = try #require(refusal(directory))
        #expect(problem.reason == .insecurePermissions)
        #expect(problem.path == bundle.path)
        #expect(problem.message == "refused: en.lproj/Localizable.strings inside it is writable by group or others (mode 0666); run 'chmod -R go-w' on the bundle")
    }

    @Test func aLinkInsideIsRefused() throws {
        let (directory, bundle) = try bundle()
        try FileManager.default.createSymbolicLink(atPath: bundle.appendingPathComponent("passwd").path, withDestinationPath: "/etc/passwd")
        let problem = try #require(refusal(directory))
        #expect(problem.message == "refused: passwd inside it is a symbolic link (a bundle's files must be its own)")
    }

    @Test func aLooseBundleDirectoryIsRefused() throws {
        let (directory, bundle) = try bundle()
        chmod(bundle.path, 0o775)
        let problem = try #require(refusal(directory))
        #expect(problem.message == "refused: the bundle directory is writable by group or others (mode 0775); run 'chmod -R go-w' on the bundle")
    }

    @Test func aBundleWithoutItsSharedObjectIsRefused() throws {
        let (directory, bundle) = try bundle()
        try FileManager.default.moveItem(at: bundle.appendingPathComponent("Weather.so"), to: bundle.appendingPathComponent("Other.so"))
        let problem = try #require(refusal(directory))
        #expect(problem.message == "not a widget bundle: it has no Weather.so inside (widgets build makes one)")
    }

    @Test func theSharedObjectInsideGetsEveryCheckOfALoneOne() throws {
        let (directory, bundle) = try bundle()
        try Data("not an ELF file".utf8).write(to: bundle.appendingPathComponent("Weather.so"))
        let problem = try #require(refusal(directory))
        #expect(problem.message == "Weather.so: not a shared object (no ELF header)")
    }

    @Test func theCacheSeesAChangedResourceAsAChangedBundle() throws {
        let (_, bundle) = try bundle()
        let before = try #require(try? BundleFile.examine(bundle.path).get())
        let strings = bundle.appendingPathComponent("en.lproj/Localizable.strings")
        try Data("\"a\" = \"changed\";".utf8).write(to: strings)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 3600)], ofItemAtPath: strings.path)
        let after = try #require(try? BundleFile.examine(bundle.path).get())
        #expect(after.modified != before.modified || after.size != before.size)
    }
}
