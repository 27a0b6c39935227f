#!/usr/bin/python3
# A stand-in for a desktop's notification server (org.freedesktop.Notifications), and for its
# settings portal's appearance (org.freedesktop.portal.Settings' color-scheme, dark at first, which a
# test sets with org.widgets.Test.SetColorScheme), on a test's own session bus. The notification
# server records each call, one JSON object a line, in the file named by its argument, and
# answers as a server does (a new id, or the id replaced). Run with Debian's python3 and its
# python3-dbus and python3-gi.
import json
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

record = open(sys.argv[1], "a", buffering=1)


class Notifications(dbus.service.Object):
    def __init__(self, bus):
        super().__init__(bus, "/org/freedesktop/Notifications")
        self.next = 1

    @dbus.service.method("org.freedesktop.Notifications", in_signature="susssasa{sv}i", out_signature="u")
    def Notify(self, app, replaces, icon, summary, body, actions, hints, timeout):
        id = int(replaces) or self.next
        if not replaces:
            self.next += 1
        record.write(json.dumps({"call": "Notify", "app": str(app), "replaces": int(replaces), "summary": str(summary), "body": str(body),
                                 "hints": {str(k): str(v) for k, v in hints.items()}, "timeout": int(timeout), "id": id}) + "\n")
        return id

    @dbus.service.method("org.freedesktop.Notifications", in_signature="u", out_signature="")
    def CloseNotification(self, id):
        record.write(json.dumps({"call": "CloseNotification", "id": int(id)}) + "\n")

    @dbus.service.method("org.freedesktop.Notifications", in_signature="", out_signature="ssss")
    def GetServerInformation(self):
        return ("widgets-test", "widgets", "1", "1.2")


class Settings(dbus.service.Object):
    def __init__(self, bus):
        super().__init__(bus, "/org/freedesktop/portal/desktop")
        self.scheme = 1  # dark: not what a client takes when it reads nothing

    @dbus.service.method("org.freedesktop.portal.Settings", in_signature="ss", out_signature="v")
    def ReadOne(self, namespace, key):
        if (namespace, key) != ("org.freedesktop.appearance", "color-scheme"):
            raise dbus.exceptions.DBusException("no such setting", name="org.freedesktop.portal.Error.NotFound")
        return dbus.UInt32(self.scheme, variant_level=1)

    @dbus.service.signal("org.freedesktop.portal.Settings", signature="ssv")
    def SettingChanged(self, namespace, key, value):
        pass

    @dbus.service.method("org.widgets.Test", in_signature="u", out_signature="")
    def SetColorScheme(self, scheme):
        self.scheme = int(scheme)
        self.SettingChanged("org.freedesktop.appearance", "color-scheme", dbus.UInt32(self.scheme, variant_level=1))


DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()
name = dbus.service.BusName("org.freedesktop.Notifications", bus)
server = Notifications(bus)
portal_name = dbus.service.BusName("org.freedesktop.portal.Desktop", bus)
settings = Settings(bus)
print("ready", flush=True)
GLib.MainLoop().run()
