#!/usr/bin/env python3
"""scripts/address.py's rules on sample text: each kind of derived mention is caught when
it disagrees and rewritten by `write`, third-party actions and prose are left alone.

    python3 scripts/test_address.py
"""

import unittest

import address


def changed(text, slug="acme/utf8-harness", version="1.2.3", vv="4.5.6"):
    new, changes = address.derive(text, slug, version, vv)
    return new, len(changes)


class Derive(unittest.TestCase):
    def test_the_projects_action_is_rewritten_and_its_tag_follows_the_version(self):
        self.assertEqual(changed("- uses: OWNER/REPO@v0.1.0"), ("- uses: acme/utf8-harness@v1.2.3", 1))
        self.assertEqual(changed("`uses: OWNER/REPO@v0.1.0` with"), ("`uses: acme/utf8-harness@v1.2.3` with", 1))
        # A branch is kept; only the address changes.
        self.assertEqual(changed("uses: old/name@main"), ("uses: acme/utf8-harness@main", 1))

    def test_agreeing_mentions_and_third_party_actions_are_left_alone(self):
        for text in (
            "- uses: acme/utf8-harness@v1.2.3",
            "- uses: actions/checkout@v4",
            "uses: google/clusterfuzzlite/actions/build_fuzzers@v1",
            "- uses: dtolnay/rust-toolchain@stable",
            "replace OWNER/REPO in prose",
            "https://github.com/acme/utf8-harness/releases/download/v1.2.3/cutf8-1.2.3-x86_64-unknown-linux-musl",
            "corrected-utf8-vectors-4.5.6.tar.gz",
            "corrected-utf8-explorer-1.2.3.tar.gz",
            "https://acme.github.io/utf8-harness/index.html#vectors",
            "[OSS-Fuzz](https://google.github.io/oss-fuzz/)",
        ):
            with self.subTest(text=text):
                self.assertEqual(changed(text), (text, 0))

    def test_the_explorer_s_tarball_and_pages_address_follow(self):
        self.assertEqual(
            changed("`corrected-utf8-explorer-0.1.0.tar.gz`"), ("`corrected-utf8-explorer-1.2.3.tar.gz`", 1)
        )
        self.assertEqual(
            changed('href="https://owner.github.io/REPO/index.html#vectors/utf-8/decode.json/1"'),
            ('href="https://acme.github.io/utf8-harness/index.html#vectors/utf-8/decode.json/1"', 1),
        )
        self.assertEqual(
            changed("https://acme.github.io/utf8-harness/", slug="Acme/utf8-harness"),
            ("https://acme.github.io/utf8-harness/", 0),
        )

    def test_urls_release_files_and_the_vectors_tarball_follow(self):
        self.assertEqual(
            changed("base=https://github.com/OWNER/REPO/releases/download/v0.1.0"),
            ("base=https://github.com/acme/utf8-harness/releases/download/v1.2.3", 1),
        )
        self.assertEqual(
            changed("install -m 755 conformance-0.1.0-aarch64-unknown-linux-musl x"),
            ("install -m 755 conformance-1.2.3-aarch64-unknown-linux-musl x", 1),
        )
        self.assertEqual(
            changed("`corrected-utf8-vectors-2.3.0.tar.gz`"), ("`corrected-utf8-vectors-4.5.6.tar.gz`", 1)
        )
        self.assertEqual(
            changed('homepage = "https://github.com/OWNER/REPO"'),
            ('homepage = "https://github.com/acme/utf8-harness"', 1),
        )

    def test_the_repository_today_agrees_with_every_doc(self):
        self.assertEqual(address.check(), 0)


if __name__ == "__main__":
    unittest.main()
