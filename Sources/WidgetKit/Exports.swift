// As on iOS, where WidgetKit brings SwiftUI and Foundation with it, `import WidgetKit` is all a widget
// file needs: Date, Calendar, URL and the rest come along.
@_exported import Foundation
