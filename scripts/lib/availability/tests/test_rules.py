"""The check's pure parts: versions and floors, `#if` conditions, the lexical pass."""
import unittest

from availability import conditions
from availability.platforms import (SWIFTPM_DEFAULT_FLOORS, Version, declared_platforms, floors_from_dump_package,
                                    parse_floors, visionos_from_ios)
from availability.sourcetext import scan

V = Version.parse


class VersionTests(unittest.TestCase):
    def test_parse_and_compare(self):
        self.assertEqual(V("15"), V("15.0.0"))
        self.assertLess(V("17.4"), V("18"))
        self.assertEqual(str(V("10.15")), "10.15")
        self.assertEqual(V({"major": 14, "minor": 5}), V("14.5"))
        with self.assertRaises(ValueError):
            V("fifteen")

    def test_visionos_takes_the_ios_version_through_the_sdk_map(self):
        self.assertEqual(visionos_from_ios(V("13")), V("1.0"))     # below the map: its first value
        self.assertEqual(visionos_from_ios(V("17")), V("1.0"))
        self.assertEqual(visionos_from_ios(V("17.2")), V("1.0"))   # unlisted minor: its major, below the map
        self.assertEqual(visionos_from_ios(V("17.4")), V("1.1"))
        self.assertEqual(visionos_from_ios(V("18")), V("2.0"))
        self.assertEqual(visionos_from_ios(V("18.6")), V("2.6"))
        self.assertEqual(visionos_from_ios(V("26")), V("26"))


class FloorTests(unittest.TestCase):
    MAIN = {"platforms": [{"platformName": "macos", "version": "13.0"}, {"platformName": "ios", "version": "16.0"},
                          {"platformName": "tvos", "version": "16.0"}, {"platformName": "watchos", "version": "9.0"},
                          {"platformName": "visionos", "version": "1.0"}]}

    def test_declared_platforms_take_their_versions(self):
        floors = floors_from_dump_package(self.MAIN)
        self.assertEqual(floors, {"macOS": V("13"), "iOS": V("16"), "tvOS": V("16"), "watchOS": V("9"),
                                  "visionOS": V("1")})
        self.assertEqual(declared_platforms(self.MAIN), ["macOS", "iOS", "tvOS", "watchOS", "visionOS"])

    def test_undeclared_platforms_take_swiftpm_defaults(self):
        floors = floors_from_dump_package({"platforms": [{"platformName": "macos", "version": "15.0"}]})
        self.assertEqual(floors["macOS"], V("15"))
        self.assertEqual(floors["iOS"], SWIFTPM_DEFAULT_FLOORS["iOS"])
        self.assertEqual(floors["watchOS"], V("4"))

    def test_a_declared_version_below_swiftpm_oldest_is_raised(self):
        floors = floors_from_dump_package({"platforms": [{"platformName": "macos", "version": "10.10"}]})
        self.assertEqual(floors["macOS"], V("10.13"))

    def test_only_limits_the_platforms(self):
        self.assertEqual(list(floors_from_dump_package(self.MAIN, only=("macOS",))), ["macOS"])

    def test_parse_floors(self):
        self.assertEqual(parse_floors("macOS=13, iOS=16.4"), {"macOS": V("13"), "iOS": V("16.4")})
        with self.assertRaises(ValueError):
            parse_floors("Linux=6")


class ConditionTests(unittest.TestCase):
    def test_os(self):
        self.assertTrue(conditions.evaluate("os(macOS)", "macOS"))
        self.assertFalse(conditions.evaluate("os(macOS)", "iOS"))
        self.assertTrue(conditions.evaluate("os(macOS) || os(Linux)", "Linux"))
        self.assertFalse(conditions.evaluate("os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)", "macOS"))
        self.assertFalse(conditions.evaluate("os(iOS)", "visionOS"))

    def test_can_import(self):
        self.assertTrue(conditions.evaluate("canImport(Darwin)", "watchOS"))
        self.assertFalse(conditions.evaluate("canImport(Glibc)", "macOS"))
        self.assertFalse(conditions.evaluate("canImport(FoundationNetworking)", "iOS"))
        self.assertTrue(conditions.evaluate("canImport(FoundationNetworking)", "Linux"))
        self.assertTrue(conditions.evaluate("!canImport(Darwin)", "Linux"))
        self.assertTrue(conditions.evaluate("canImport(UIKit)", "visionOS"))
        self.assertFalse(conditions.evaluate("canImport(UIKit)", "macOS"))
        self.assertIsNone(conditions.evaluate("canImport(SomethingElse)", "macOS"))

    def test_undecided_atoms_stay_undecided(self):
        self.assertIsNone(conditions.evaluate("DEBUG", "macOS"))
        self.assertIsNone(conditions.evaluate("os(macOS) && DEBUG", "macOS"))
        self.assertFalse(conditions.evaluate("os(Linux) && DEBUG", "macOS"))
        self.assertTrue(conditions.evaluate("os(macOS) || DEBUG", "macOS"))
        self.assertIsNone(conditions.evaluate("!(swift(>=6.0))", "iOS"))
        self.assertIsNone(conditions.evaluate("arch(arm64)", "iOS"))

    def test_clauses_of_a_block(self):
        source = scan(b"#if canImport(Darwin)\na()\n#elseif canImport(Glibc)\nb()\n#else\nc()\n#endif\n")
        found = conditions.regions(source.directives)
        self.assertEqual([r.condition for r in found], ["#if canImport(Darwin)", "#elseif canImport(Glibc)", "#else"])
        self.assertEqual([r.activity("macOS") for r in found], [True, False, False])
        self.assertEqual([r.activity("Linux") for r in found], [False, True, False])
        offset = source.text.index(b"b()")
        self.assertFalse(conditions.activity_at(found, offset, "iOS"))
        self.assertTrue(conditions.activity_at(found, offset, "Linux"))

    def test_else_after_an_undecided_condition_is_undecided(self):
        found = conditions.regions(scan(b"#if DEBUG\na()\n#else\nb()\n#endif\n").directives)
        self.assertEqual([r.activity("macOS") for r in found], [None, None])

    def test_nested_blocks(self):
        source = scan(b"#if os(macOS) || os(Linux)\n#if DEBUG\nx()\n#endif\n#endif\n")
        found = conditions.regions(source.directives)
        offset = source.text.index(b"x()")
        self.assertFalse(conditions.activity_at(found, offset, "iOS"))
        self.assertIsNone(conditions.activity_at(found, offset, "macOS"))


class SourceTextTests(unittest.TestCase):
    def test_directives_in_strings_and_comments_are_not_directives(self):
        text = (b'let page = """\n#if os(Linux)\n  @media print {}\n"""\n'
                b'/* \n#if os(iOS)\n*/\n// #endif\nlet raw = #"\\("#\n#if os(macOS)\nf()\n#endif\n')
        source = scan(text)
        self.assertEqual([(d.kind, d.condition) for d in source.directives], [("if", "os(macOS)"), ("endif", "")])
        self.assertEqual([a.name for a in source.attributes], [])

    def test_interpolation_returns_to_code(self):
        source = scan(b'let s = "a \\(f("b)")) c"\n@MainActor func g() {}\n')
        self.assertEqual([a.name for a in source.attributes], ["MainActor"])

    def test_prepared_text_keeps_offsets_and_available(self):
        text = (b"#if canImport(Darwin)\n@available(macOS 14, *)\n@MainActor\nfunc f(_ x: @escaping @Sendable () -> Void) {}\n"
                b"#endif\nlet c = { @MainActor in 1 }\n")
        prepared = scan(text).prepared_for_parse()
        self.assertEqual(len(prepared), len(text))
        self.assertIn(b"@available(macOS 14, *)", prepared)
        self.assertNotIn(b"#if", prepared)
        self.assertNotIn(b"@Sendable", prepared)
        self.assertIn(b"{ ()", prepared)
        self.assertEqual(prepared.count(b"\n"), text.count(b"\n"))

    def test_offsets_of_lines_and_columns(self):
        source = scan("let é = 1\nlet x = 2\n".encode())
        self.assertEqual(source.offset(2, 5), source.text.index(b"x"))
        self.assertEqual(source.line_of(source.text.index(b"x")), 2)


if __name__ == "__main__":
    unittest.main()
