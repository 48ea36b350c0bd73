"""The decoder matrix's choice of decoders: `--only` runs exactly the named ones (a gate
that silently ran all, or fewer, would report on other decoders than asked)."""

import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import decoders  # noqa: E402


class Select(unittest.TestCase):
    def test_without_only_every_decoder_in_table_order(self):
        self.assertEqual(decoders.select(None), decoders.DECODERS)
        self.assertEqual(decoders.select(""), decoders.DECODERS)

    def test_only_the_named_ones_in_table_order(self):
        names = [d[0] for d in decoders.DECODERS]
        first, last = names[0], names[-1]
        chosen = decoders.select(f"{last},{first}")
        self.assertEqual([d[0] for d in chosen], [first, last])

    def test_an_unknown_name_ends_the_command(self):
        with self.assertRaises(SystemExit) as stop:
            decoders.select(f"{decoders.DECODERS[0][0]},no-such-decoder")
        self.assertIn("no-such-decoder", str(stop.exception.code))


if __name__ == "__main__":
    unittest.main()
