#!/usr/bin/env bash
# Makes the small recordings the metadata tests strip: real sound and film, each with a
# place, a name and a title where its container keeps them. Run again after changing it
# (needs ffmpeg); the files are committed, so the tests themselves need no ffmpeg.
set -euo pipefail
cd "$(dirname "$0")"

PLACE='+37.7749-122.4194/'
ff() { ffmpeg -nostdin -v error -y -bitexact "$@"; }
picture=(-f lavfi -i testsrc=size=32x32:rate=5:duration=1)
sound=(-f lavfi -i sine=frequency=440:duration=1)
named=(-metadata title='Ada at home' -metadata location="$PLACE" -metadata artist='Ada Lovelace')
h264=(-c:v libx264 -preset ultrafast -pix_fmt yuv420p -bsf:v filter_units=remove_types=6)

printf '1\n00:00:00,000 --> 00:00:01,000\nGPS %s\n' "$PLACE" >track.srt
trap 'rm -f track.srt' EXIT

# MP4 as a phone's camera writes it, the index after the media.
ff "${picture[@]}" "${sound[@]}" "${h264[@]}" -c:a aac -b:a 24k "${named[@]}" clip.mp4
# Fragmented, as browsers record MP4.
ff "${picture[@]}" "${sound[@]}" "${h264[@]}" -c:a aac -b:a 24k "${named[@]}" \
  -movflags frag_keyframe+empty_moov+default_base_moof clip-fragmented.mp4
# QuickTime with a text track beside the picture and the sound (the index first).
ff "${picture[@]}" "${sound[@]}" -i track.srt -map 0 -map 1 -map 2 "${h264[@]}" -c:a aac \
  -b:a 24k -c:s mov_text "${named[@]}" -movflags +faststart -f mov clip.mov
# A voice message as Safari records it: AAC in M4A.
ff "${sound[@]}" -c:a aac -b:a 24k "${named[@]}" -f ipod voice.m4a
# WebM with sizes, cues and checksums, as a file is written.
ff "${picture[@]}" "${sound[@]}" -c:v libvpx -b:v 50k -c:a libopus -b:a 16k "${named[@]}" clip.webm
# WebM as Chromium and Firefox record it: sizes unknown, written as it goes.
ff "${sound[@]}" -c:a libopus -b:a 16k "${named[@]}" -live 1 -f webm voice.webm
# Matroska with an attachment and chapters.
ff "${picture[@]}" "${sound[@]}" -i track.srt -map 0 -map 1 -map 2 -c:v libvpx -b:v 50k \
  -c:a libopus -b:a 16k -c:s srt "${named[@]}" -attach track.srt \
  -metadata:s:t mimetype=text/plain -metadata:s:t filename='at home.srt' clip.mkv
# Ogg: Opus as Firefox records it, and Vorbis.
ff "${sound[@]}" -c:a libopus -b:a 16k -metadata LOCATION="$PLACE" "${named[@]}" voice.ogg
ff "${sound[@]}" -c:a libvorbis -q:a 0 -metadata LOCATION="$PLACE" "${named[@]}" voice-vorbis.ogg
