import Testing

@testable import WidgetWire

/// Which paths name a bundle with resources, and where its shared object is.
@Suite struct ResourceBundleLayoutTests {
    @Test func aBundleDirectoryIsNamedByItsExtensionWhateverSlashesEndIt() {
        #expect(ResourceBundleLayout.isBundleDirectory("/srv/widgets.d/Weather.widgetbundle"))
        #expect(ResourceBundleLayout.isBundleDirectory("/srv/widgets.d/Weather.widgetbundle//"))
        #expect(ResourceBundleLayout.isBundleDirectory("Météo.widgetbundle"))
        #expect(!ResourceBundleLayout.isBundleDirectory("/srv/widgets.d/.widgetbundle"))
        #expect(!ResourceBundleLayout.isBundleDirectory("/srv/widgets.d/Weather.so"))
        #expect(!ResourceBundleLayout.isBundleDirectory("/srv/Weather.widgetbundle/Weather.so"))
        #expect(!ResourceBundleLayout.isBundleDirectory("/"))
        #expect(ResourceBundleLayout.name("/srv/widgets.d/Météo.widgetbundle/") == "Météo")
        #expect(ResourceBundleLayout.executable("/srv/widgets.d/Météo.widgetbundle/") == "/srv/widgets.d/Météo.widgetbundle/Météo.so")
        #expect(ResourceBundleLayout.executable("Weather.widgetbundle") == "Weather.widgetbundle/Weather.so")
    }
}
