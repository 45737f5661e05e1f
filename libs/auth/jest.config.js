export default { displayName: '@workcell/auth-kit', preset: '../../jest.preset.js' };
