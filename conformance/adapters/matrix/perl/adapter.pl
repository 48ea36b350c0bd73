#!/usr/bin/env perl
# Conformance adapter (protocol 2, with batches) for Perl's UTF-8 decoding, utf-8 only;
# two decoders, chosen with --decoder:
#
# encode (the default): the Encode module's strict "UTF-8" encoding.
#   decode: `lossy` from Encode::decode('UTF-8', $bytes, FB_DEFAULT) (substitutes
#   U+FFFD); `valid`, `result` from Encode::decode('UTF-8', $bytes, FB_CROAK) (dies on
#   the first malformed sequence; the message names bytes, not a machine-readable
#   position or length, so no `strict`).
#   encode: Encode::encode('UTF-8', chr($cp), FB_CROAK): `bytes`, or `error: null` when
#   it dies.
# utf8: the core functions utf8::decode / utf8::encode (Perl's own, lax, "extended"
#   UTF-8). decode: `valid`, `result` from utf8::decode's return value (it has no
#   replacement mode); encode: utf8::encode(chr($cp)) as produced.
# A code point that does not fit Perl's integers (above 64 bits) cannot be passed:
# `error: null`. Everything else: {"unsupported": true}.
# Protocol: conformance/adapters/README.md. Core modules only (Encode, JSON::PP).
use strict;
use warnings;
no warnings qw(portable);    # hex() of 64-bit code points is fine on a 64-bit perl
use Encode ();
use JSON::PP ();

my $decoder = 'encode';
for my $i (0 .. $#ARGV - 1) {
    $decoder = $ARGV[$i + 1] if $ARGV[$i] eq '--decoder';
}
die "usage: adapter.pl [--decoder encode|utf8]\n" unless $decoder =~ /\A(?:encode|utf8)\z/;

my $json = JSON::PP->new->utf8->allow_nonref;
my $BATCH = 4096;

sub hello {
    if ($decoder eq 'utf8') {
        return (
            protocol => 2,
            name     => sprintf('Perl %vd utf8::decode / utf8::encode', $^V),
            supports => [
                { encoding => 'utf-8', op => 'decode', fields => [qw(result valid)] },
                { encoding => 'utf-8', op => 'encode', fields => [qw(bytes error)] },
            ],
            batch => $BATCH,
        );
    }
    return (
        protocol => 2,
        name     => sprintf('Perl %vd Encode %s UTF-8 (FB_DEFAULT / FB_CROAK)', $^V, $Encode::VERSION),
        supports => [
            { encoding => 'utf-8', op => 'decode', fields => [qw(lossy result valid)] },
            { encoding => 'utf-8', op => 'encode', fields => [qw(bytes error)] },
        ],
        batch => $BATCH,
    );
}

sub decode_fields {
    my ($bytes) = @_;
    my $valid;
    my %answer;
    if ($decoder eq 'utf8') {
        my $copy = $bytes;
        $valid = utf8::decode($copy) ? 1 : 0;
    } else {
        my $copy = $bytes;
        my $text = Encode::decode('UTF-8', $copy, Encode::FB_DEFAULT);
        $answer{lossy} = [ map { sprintf('U+%04X', ord $_) } split //, $text ];
        $copy = $bytes;
        $valid = eval { Encode::decode('UTF-8', $copy, Encode::FB_CROAK); 1 } ? 1 : 0;
    }
    $answer{valid}  = $valid ? JSON::PP::true : JSON::PP::false;
    $answer{result} = $valid ? 'valid' : 'invalid';
    return %answer;
}

sub encode_fields {
    my ($digits) = @_;
    $digits =~ s/\A0+(?=.)//;
    return (error => undef) if length $digits > 16 || hex($digits) > 0x7FFFFFFFFFFFFFFF;
    my $char = do { no warnings; chr hex $digits };
    if ($decoder eq 'utf8') {
        utf8::encode($char);
        return (bytes => unpack('H*', $char));
    }
    my $bytes = eval { no warnings; Encode::encode('UTF-8', $char, Encode::FB_CROAK) };
    return defined $bytes ? (bytes => unpack('H*', $bytes)) : (error => undef);
}

# One request object (not a batch).
sub respond {
    my ($req) = @_;
    my %answer = (id => $req->{id});
    my $op  = $req->{op}       // '';
    my $enc = $req->{encoding} // '';
    my @fields;
    if (!ref $op && $op eq 'hello') {
        @fields = hello();
    } elsif (!ref $enc && $enc eq 'utf-8' && !ref $op && $op eq 'decode') {
        my $input = $req->{input};
        @fields = decode_fields(pack('H*', $input))
          if defined $input && !ref $input && $input =~ /\A(?:[0-9a-fA-F]{2})*\z/;
    } elsif (!ref $enc && $enc eq 'utf-8' && !ref $op && $op eq 'encode') {
        my $cp = $req->{codepoint};
        @fields = encode_fields($1) if defined $cp && !ref $cp && $cp =~ /\AU\+([0-9A-Fa-f]+)\z/;
    }
    return { %answer, @fields ? @fields : (unsupported => JSON::PP::true) };
}

sub handle_line {
    my ($line) = @_;
    my $req = eval { $json->decode($line) };
    return { id => undef, unsupported => JSON::PP::true } unless ref $req eq 'HASH';
    my $op = $req->{op} // '';
    return respond($req) unless !ref $op && $op eq 'batch';
    my $reqs = $req->{requests};
    return { id => $req->{id}, unsupported => JSON::PP::true } unless ref $reqs eq 'ARRAY';
    my @responses = map {
        ref $_ eq 'HASH' ? (eval { respond($_) } // { id => $_->{id}, unsupported => JSON::PP::true })
          : { id => undef, unsupported => JSON::PP::true }
    } @$reqs;
    return { id => $req->{id}, responses => \@responses };
}

binmode STDIN;
binmode STDOUT;
$| = 1;
while (defined(my $line = <STDIN>)) {
    $line =~ s/[\r\n]+\z//;
    my $answer = eval { handle_line($line) };
    if (!$answer) {
        print STDERR "perl adapter: $@";
        $answer = { id => undef, unsupported => JSON::PP::true };
    }
    print $json->encode($answer), "\n";
}
