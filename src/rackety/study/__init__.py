"""Study: word quizzes in probability order (`quiz`), for players learning
their lexicon (docs/STUDY.md)."""

from rackety.study.quiz import Grade, Question, anagram_questions, hook_questions, judge_questions

__all__ = ["Grade", "Question", "anagram_questions", "hook_questions", "judge_questions"]
