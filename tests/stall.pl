# stall.pl: FastCGI peers for tests/fcgi-stall.sh and for measuring what a
# stalled peer costs the others (doc/gpt.fcgi.8 gives the figures).
#
#   perl stall.pl ROLE SOCKET PATH_INFO SECONDS
#
# Every role gives up after SECONDS (exit 1, "no answer after S s").
#   get       one GET; prints "answered STATUS in S s"; exit 0 on 200
#   silent    connects and sends nothing; exit 0 when the process closes
#   trickle   a POST head, then its body a byte a second
#   slowread  a GET, then reads 64 KB of the answer every second; prints
#             "cut after N bytes in S s" when the process closes first
#             (exit 0), or "whole answer, N bytes in S s" (exit 1)
use strict;
use warnings;
use Socket;
use Time::HiRes qw(time sleep);

my ($role, $path, $info, $limit) = @ARGV;
die "usage: stall.pl ROLE SOCKET PATH_INFO SECONDS\n" if !defined $limit;
my $t0 = time;
$SIG{ALRM} = sub {
	printf "%s: no answer after %.1f s\n", $role, time - $t0;
	exit 1;
};
alarm $limit;
$SIG{PIPE} = 'IGNORE';
socket(my $s, PF_UNIX, SOCK_STREAM, 0) or die "socket: $!";
connect($s, pack_sockaddr_un($path)) or die "connect: $!";
binmode $s;

sub rec {
	my ($type, $c) = @_;
	return pack('CCnnCC', 1, $type, 1, length $c, 0, 0) . $c;
}
sub nv { my ($n, $v) = @_; return pack('CC', length $n, length $v) . $n . $v }
sub head {
	my ($m, @p) = @_;
	my $p = nv('REQUEST_METHOD', $m) . nv('PATH_INFO', $info)
	    . nv('REQUEST_URI', "/gpt$info") . nv('SERVER_PROTOCOL', 'HTTP/1.1');
	$p .= nv(shift @p, shift @p) while @p;
	return rec(1, pack('nCx5', 1, 0)) . rec(4, $p) . rec(4, '');
}
# The answer's status, or 'eof' when the connection ends first.
sub answer {
	my $out = '';
	for (;;) {
		my $h = '';
		while (length $h < 8) {
			my $n = sysread($s, $h, 8 - length $h, length $h);
			return 'eof' if !$n;
		}
		my ($v, $type, $id, $len, $pad) = unpack('CCnnC', $h);
		my $c = '';
		while (length $c < $len + $pad) {
			my $n = sysread($s, $c, $len + $pad - length $c, length $c);
			return 'eof' if !$n;
		}
		$out .= substr($c, 0, $len) if $type == 6 && length $out < 64;
		return $out =~ /^Status: (\d+)/ ? $1 : '?' if $type == 3;
	}
}

if ($role eq 'get') {
	syswrite($s, head('GET') . rec(5, ''));
	my $st = answer();
	printf "answered %s in %.2f s\n", $st, time - $t0;
	exit($st eq '200' ? 0 : 1);
} elsif ($role eq 'silent') {
	exit(answer() eq 'eof' ? 0 : 1);
} elsif ($role eq 'trickle') {
	my $body = '{"trickled": "a byte a second"}';
	syswrite($s, head('POST', 'CONTENT_TYPE', 'application/json',
	    'CONTENT_LENGTH', length $body)
	    . pack('CCnnCC', 1, 5, 1, length $body, 0, 0));
	for my $i (0 .. length($body) - 1) {
		sleep 1;
		exit 0 if !defined syswrite($s, substr($body, $i, 1));
	}
	exit 1;
} elsif ($role eq 'slowread') {
	syswrite($s, head('GET') . rec(5, ''));
	my $got = 0;
	for (;;) {
		sleep 1;
		my $n = sysread($s, my $b, 65536);
		if (!$n) {
			printf "cut after %d bytes in %.2f s\n", $got, time - $t0;
			exit 0;
		}
		$got += $n;
		if ($got >= 3000000 && $b =~ /\x01\x03\x00\x01/) {
			printf "whole answer, %d bytes in %.2f s\n", $got,
			    time - $t0;
			exit 1;
		}
	}
}
die "stall.pl: unknown role $role\n";
