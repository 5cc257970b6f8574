"""The rating module: OpenSkill's Plackett-Luce on a finished match's teams."""

from __future__ import annotations

import pytest

from bot.ratings import INITIAL, Rating, is_rated, match_ranks, rate_match, win_chances


def test_a_newcomer_starts_at_the_models_defaults_with_ordinal_zero() -> None:
    assert (INITIAL.mu, INITIAL.sigma) == (25.0, 25.0 / 3.0)
    assert INITIAL.ordinal == pytest.approx(0.0)
    assert Rating(30.0, 2.0).ordinal == pytest.approx(24.0)


def test_the_winning_team_goes_up_and_the_losers_down() -> None:
    new = rate_match([[1, 3], [2, 4]], [0, 1], {})
    assert set(new) == {1, 2, 3, 4}
    for winner in (1, 3):
        assert new[winner].mu > INITIAL.mu
        assert new[winner].sigma < INITIAL.sigma
        assert new[winner].ordinal > 0
    for loser in (2, 4):
        assert new[loser].mu < INITIAL.mu
    assert new[1] == new[3] and new[2] == new[4]  # same team, same start: same change


def test_beating_a_stronger_team_gains_more() -> None:
    strong = {2: Rating(35.0, 3.0), 4: Rating(35.0, 3.0)}
    upset = rate_match([[1, 3], [2, 4]], [0, 1], strong)
    expected = rate_match([[1, 3], [2, 4]], [1, 0], strong)
    assert upset[1].mu - INITIAL.mu > INITIAL.mu - expected[1].mu > 0
    assert upset[2].mu < 35.0 < expected[2].mu


def test_the_current_ratings_are_the_starting_point_and_not_changed() -> None:
    current = {1: Rating(28.0, 5.0)}
    new = rate_match([[1, 3], [2, 4]], [0, 1], current)
    assert current == {1: Rating(28.0, 5.0)}
    assert new[1].mu > 28.0 and new[1].sigma < 5.0
    assert new[1] != rate_match([[1, 3], [2, 4]], [0, 1], {})[1]


def test_the_same_inputs_give_the_same_floats() -> None:
    current = {1: Rating(27.1, 6.2), 2: Rating(22.3, 7.9)}
    assert rate_match([[1, 3], [2, 4]], [1, 0], current) == rate_match(
        [[1, 3], [2, 4]], [1, 0], dict(current)
    )


def test_computers_are_not_rated_and_their_matches_count_only_when_allowed() -> None:
    teams = [[1, None], [2, 4]]
    assert rate_match(teams, [0, 1], {}) == {}
    assert not is_rated(teams, hints=False, rate_computers=False)
    new = rate_match(teams, [0, 1], {}, rate_computers=True)
    assert set(new) == {1, 2, 4}  # the computer seat gets nothing
    assert new[1].mu > INITIAL.mu > new[2].mu
    assert rate_match([[None, None], [None, None]], [0, 1], {}, rate_computers=True) == {}


def test_hints_are_never_rated() -> None:
    assert rate_match([[1, 3], [2, 4]], [0, 1], {}, hints=True) == {}
    assert rate_match([[1, None], [2, 4]], [0, 1], {}, hints=True, rate_computers=True) == {}


def test_solo_formats_rank_every_seat_by_its_score() -> None:
    scores = (7, 3, 5)  # seat 0 won; seat 2 came second
    ranks = match_ranks(scores, winner_team=0)
    assert ranks == [0, 2, 1]
    new = rate_match([[10], [11], [12]], ranks, {})
    assert new[10].mu > new[12].mu > new[11].mu
    assert new[10].mu > INITIAL.mu > new[11].mu


def test_equal_scores_share_a_place_behind_the_winner() -> None:
    assert match_ranks((2, 7, 2, 4, 2), winner_team=1) == [2, 0, 2, 1, 2]
    assert match_ranks((3, 7), winner_team=1) == [1, 0]
    new = rate_match([[1], [2], [3], [4], [5]], match_ranks((2, 7, 2, 4, 2), 1), {})
    assert new[1] == new[3] == new[5]


def test_teams_and_ranks_must_match() -> None:
    with pytest.raises(ValueError):
        rate_match([[1, 2]], [0], {})
    with pytest.raises(ValueError):
        rate_match([[1], [2]], [0], {})


def test_win_chances_favour_the_stronger_team_and_sum_to_one() -> None:
    even = win_chances([[1, 3], [2, 4]], {})
    assert even == pytest.approx([0.5, 0.5])
    strong = {1: Rating(35.0, 2.0), 3: Rating(33.0, 2.0)}
    odds = win_chances([[1, 3], [2, None]], strong)
    assert odds[0] > 0.8 and sum(odds) == pytest.approx(1.0)
    three = win_chances([[1], [2], [3]], strong)
    assert three[0] > three[1] and sum(three) == pytest.approx(1.0)
